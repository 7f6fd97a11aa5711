# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: test programs that single-step a call in
# process (test/step/step_trace.c, x86_64 Linux) to see which code ran.
STEP_BIN := $(BUILD)/test/step
STEP_OBJ := $(BUILD)/obj/test/step
STEP_PROGS := $(patsubst test/step/%.c,$(STEP_BIN)/%,$(filter-out test/step/step_trace.c,$(wildcard test/step/*.c)))

$(STEP_BIN)/%: $(STEP_OBJ)/%.o $(STEP_OBJ)/step_trace.o $(BUILD)/obj/test/lib/tap.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(TEST_LDLIBS)
tests: $(STEP_PROGS)
