# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the benchmark.  `make bench` prints the tables
# of exactly what BENCH_ARGS selects (e.g. BENCH_ARGS="--mode cbc --size
# 1024"; see `build/bench/bench --help`), beside the system's OpenSSL and,
# once `make openssl-lib OPENSSL_VERSION=3.5` has built it into the cache,
# OpenSSL 3.5's (otherwise one line says how to build it), writes them as
# CSV to $(BENCH_CSV) and, where gnuplot is installed, draws $(BENCH_PNG);
# then one line names the other benchmarks, each its own target: the code
# sizes (bench-code-size) and the 32-bit ones (bench/x86mca/*.mk).  It
# writes nothing outside $(BUILD) and fetches and builds nothing: each
# part this machine cannot run says so in one line and what would enable
# it.
BENCH      := $(BUILD)/bench/bench
BENCH_SRCS := bench/bench.c bench/options.c bench/plan.c bench/child.c \
              bench/job.c bench/timing.c bench/figures.c bench/table.c \
              bench/csv.c bench/tsc.c bench/bound.c bench/reference.c \
              bench/summary.c
BENCH_OBJS := $(call objs_of,obj,$(BENCH_SRCS))
BENCH_CSV  := $(BUILD)/bench/bench.csv
BENCH_PNG  := $(BUILD)/bench/bench.png
BENCH_ARGS ?=
# make bench keeps each figure's fastest run: these machines are shared,
# and other work can only slow a run down (BENCH_FIGURE= for the median).
BENCH_FIGURE ?= --fastest
# Each figure over 16 stack placements, so a lucky layout cannot hide a
# slow one (BENCH_PLACEMENTS= for one).
BENCH_PLACEMENTS ?= --placements 16
# The release make bench also compares with, from tools/openssl-lib.sh's cache.
BENCH_OPENSSL_SERIES := 3.5

.PHONY: bench-bin bench-plot bench-code-size
bench-bin: $(BENCH)

$(BENCH): $(BENCH_OBJS) $(SUPPORT_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(BENCH_OBJS) $(SUPPORT_LIB_OBJS) $(LIB) $(TEST_LDLIBS)

# The last run's CSV is removed first: a run that writes none
# (BENCH_ARGS=--list) leaves nothing stale to plot.
# The command is printed as it runs, first (after the line saying how to
# get the second library when it is missing).
bench: $(BENCH)
	@rm -f $(BENCH_CSV)
	@if lib=$$(sh tools/openssl-lib.sh --cached $(BENCH_OPENSSL_SERIES) 2>&1); then \
	    set -- --openssl libcrypto.so.3 --openssl "$$lib"; \
	else \
	    echo "OpenSSL $(BENCH_OPENSSL_SERIES) not compared: $$lib"; set --; \
	fi; \
	set -- $(BENCH) --csv $(BENCH_CSV) $(BENCH_FIGURE) $(BENCH_PLACEMENTS) "$$@" $(BENCH_ARGS); \
	echo "$$*"; "$$@"
	@$(MAKE) --no-print-directory bench-plot
	@echo "more (make TARGET): bench-code-size, and the 32-bit bench-x86mca, bench-dmcrypt32, bench-sha1-586"

# The code size of every assembly path, 64-bit and aes-586.
bench-code-size: $(ASM_OBJS)
	@$(if $(ASM_OBJS),$(PERL) bench/code_size.pl $(ASM_OBJS),echo "x86_64 code size skipped: a NO_ASM build has no assembly")
	@$(PERL) bench/code_size_586.pl $(AES586_SIZE_ARGS)

# The plot of the last `make bench`, written beside it and renamed into
# place, so a failed gnuplot leaves no partial PNG.
bench-plot:
	@if [ -z '$(HAVE_GNUPLOT)' ]; then \
	    echo "plot skipped: no gnuplot (apt-get install gnuplot-nox to draw $(BENCH_PNG) from $(BENCH_CSV))"; \
	elif [ ! -s $(BENCH_CSV) ]; then \
	    echo "plot skipped: no $(BENCH_CSV) (run make bench)"; \
	else \
	    $(GNUPLOT) -e "csv='$(BENCH_CSV)'; out='$(BENCH_PNG).tmp'" bench/plot.gp && \
	    mv $(BENCH_PNG).tmp $(BENCH_PNG) && echo "plot: $(BENCH_PNG)" || \
	    { rm -f $(BENCH_PNG).tmp; exit 1; }; \
	fi
