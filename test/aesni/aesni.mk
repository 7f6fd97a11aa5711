# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: build/test/aesni_keysched compares our AES-NI
# key schedules with OpenSSL's own aesni_set_encrypt_key/aesni_set_decrypt_key.
# Those are not exported by libcrypto.so, so the object defining them is
# taken out of the system's static libcrypto.a (libssl-dev) and every symbol
# in it gets the prefix "ossl_", which keeps it apart from our archive's
# names.  When there is no libcrypto.a, or no member of it defines
# aesni_set_encrypt_key, an empty object stands in: the program sees its weak
# references unresolved and reports a TAP skip-all with the reason.

AESNI_OSSL_OBJ  := $(BUILD)/test/aesni/ossl_aesni.o

# A prerequisite only when the file exists, so installing libssl-dev later
# rebuilds the object.
$(AESNI_OSSL_OBJ): test/aesni/aesni.mk $(wildcard $(LIBCRYPTO_A))
	@mkdir -p $(@D)
	@rm -rf $@ $@.dir; mkdir -p $@.dir; \
	lib='$(LIBCRYPTO_A)'; member=; \
	case "$$lib" in /*) member=$$(nm -A "$$lib" 2>/dev/null | \
	    sed -n 's/^.*:\([^:]*\): *[0-9a-f]* T aesni_set_encrypt_key$$/\1/p' | head -n 1);; esac; \
	if [ -n "$$member" ] && (cd $@.dir && $(AR) x "$$lib" "$$member") && \
	   objcopy --prefix-symbols=ossl_ "$@.dir/$$member" $@; then \
	    echo "aesni: OpenSSL's $$member from $$lib, symbols prefixed ossl_"; \
	else \
	    echo "note: no OpenSSL AES-NI object (libcrypto.a: $$lib): aesni_keysched will skip"; \
	    rm -f $@; printf '' | $(CC) -c -x c - -o $@; \
	fi; rm -rf $@.dir

# An explicit rule: it takes precedence over the test/*.c pattern rule and
# adds OpenSSL's object to the link.
$(BUILD)/test/aesni_keysched: $(BUILD)/obj/test/aesni_keysched.o $(AESNI_OSSL_OBJ) $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(AESNI_OSSL_OBJ) $(TEST_LIB_OBJS) $(LIB) $(TEST_LDLIBS)
