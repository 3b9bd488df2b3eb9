# Harrier build entry points.
#   make              build the release binary (OpenBench: make EXE=<path> copies it there)
#   make test         everything CI runs: format check, clippy, all tests optimised
#                     (the release profile without link-time optimisation)
#   make bench        the functional signature: <nodes> nodes <nps> nps
#   make native       a build for this machine's CPU only: target/native/release/harrier
#   make lichess-test games through python-chess as lichess-bot plays them (docs/lichess-bot.md);
#                     installs python-chess and PyYAML into target/lichess-venv the first time
#   make stress       random options and commands, then fast games in every search mode; any fault
#                     fails it (sizes: STRESS_* below; uses the same venv)
#   make calibrate    the playing levels against Stockfish 15.1 at 10+0.1 (docs/levels.md): hours
#   make tune-build   the tune build (search tunables as UCI options, harrier tunables):
#                     target/tune/release/harrier (docs/tuning.md)
#   make spsa         SPSA tuning of the search tunables with tools/spsa.py (docs/tuning.md):
#                     SPSA_ARGS="--openings <epd> --iterations N ..."; hours

CARGO ?= cargo
EXE ?=
BINARY := target/release/harrier
# The tune build has a target directory of its own: it never replaces $(BINARY).
TUNE_TARGET := target/tune
TUNE_BINARY := $(TUNE_TARGET)/release/harrier

LICHESS_VENV := target/lichess-venv
# Written once python-chess and PyYAML are installed (lichess-bot's requirements.txt versions).
LICHESS_DEPS := $(LICHESS_VENV)/installed

.PHONY: all build native test bench lichess-test clean tune-build spsa stress calibrate

all: build

build:
	$(CARGO) build --release
ifneq ($(EXE),)
	cp $(BINARY) $(EXE)
endif

# The same build tuned for the CPU it is built on (not portable to older CPUs).
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release --target-dir target/native

# The tests build with the profile release-test (Cargo.toml): optimised as the release
# binary is, without its link-time optimisation. Clippy runs with the same profile so that
# the build scripts and proc-macros it compiles are the ones the test build uses. The tune
# build is checked too, in a target directory of its own: clippy on every target, then its
# own tests and the bench signatures (the defaults must search as the default build does).
TEST_PROFILE := release-test

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets --profile $(TEST_PROFILE) -- -D warnings
	$(CARGO) test --profile $(TEST_PROFILE)
	$(CARGO) clippy --all-targets --features tune --profile $(TEST_PROFILE) --target-dir $(TUNE_TARGET) -- -D warnings
	$(CARGO) test --features tune --profile $(TEST_PROFILE) --target-dir $(TUNE_TARGET) --test integration \
		-- tunables:: bench_signature::

bench: build
	$(BINARY) bench

# Not part of `make test`: it needs Python 3 and, once, PyPI.
lichess-test: build $(LICHESS_DEPS)
	$(LICHESS_VENV)/bin/python tools/lichess_bot_sim.py --engine $(BINARY)

$(LICHESS_DEPS):
	python3 -m venv $(LICHESS_VENV)
	$(LICHESS_VENV)/bin/pip install --quiet "chess~=1.11" "PyYAML~=6.0"
	touch $@

clean:
	$(CARGO) clean

tune-build:
	$(CARGO) build --release --features tune --target-dir $(TUNE_TARGET)

# Not part of `make test`: fault hunting. tools/stress.py drives STRESS_ROUNDS fresh engines
# through random options and commands, then plays, per search mode (AlphaBeta, Bandwidth
# Hybrid and Harris, Minimax) against the default mode, STRESS_GAMES_FAST games at 1+0.01 and
# STRESS_GAMES_PONDER games at 5+0.05 with both sides pondering, half of them on 2 threads
# (tools/games.py); it prints the faults per mode and clock and fails on any. Openings:
# STRESS_BOOK (EPD or FEN) or random plies. The binary is copied first, so that a rebuild
# during the run does not change the engine under test. The full-size run (hours):
#   make stress STRESS_ROUNDS=200 STRESS_GAMES_FAST=500 STRESS_GAMES_PONDER=200
STRESS_ROUNDS ?= 20
STRESS_GAMES_FAST ?= 4
STRESS_GAMES_PONDER ?= 2
STRESS_SEED ?= 1
STRESS_BOOK ?=
STRESS_CONCURRENCY ?= 1
# More arguments for tools/stress.py, e.g. an anchor engine as the opponent:
#   STRESS_ARGS="--opponent /usr/games/glaurung --opponent-opt Threads=1 --opponent-opt OwnBook=false"
STRESS_ARGS ?=
STRESS_BINARY := target/stress/harrier

# Not part of `make test`: Harrier's UCI_Elo levels against Stockfish 15.1's at 10+0.1, and
# the fitted ELO_SKILL_TENTHS table (tools/calibrate_levels.py, docs/levels.md); results
# accumulate in target/levels/results.jsonl. CALIBRATE_ARGS go to the tool, e.g.
#   make calibrate CALIBRATE_ARGS="--openings book.epd --concurrency 2"
CALIBRATE_ELOS ?= 1400,1800,2200
CALIBRATE_GAMES ?= 100
CALIBRATE_ARGS ?=
CALIBRATE_BINARY := target/levels/harrier

stress: build $(LICHESS_DEPS)
	mkdir -p $(dir $(STRESS_BINARY))
	cp $(BINARY) $(STRESS_BINARY)
	$(LICHESS_VENV)/bin/python tools/stress.py $(STRESS_BINARY) --rounds $(STRESS_ROUNDS) \
		--seed $(STRESS_SEED) --games-fast $(STRESS_GAMES_FAST) --games-ponder $(STRESS_GAMES_PONDER) \
		--concurrency $(STRESS_CONCURRENCY) $(if $(STRESS_BOOK),--book $(STRESS_BOOK)) $(STRESS_ARGS)

calibrate: build $(LICHESS_DEPS)
	mkdir -p $(dir $(CALIBRATE_BINARY))
	cp $(BINARY) $(CALIBRATE_BINARY)
	$(LICHESS_VENV)/bin/python tools/calibrate_levels.py --engine $(CALIBRATE_BINARY) \
		--elo $(CALIBRATE_ELOS) --games $(CALIBRATE_GAMES) $(CALIBRATE_ARGS)

# Not part of `make test`: SPSA tuning of the search tunables (tools/spsa.py, docs/tuning.md)
# with the tune build; the run lives in target/spsa unless SPSA_ARGS gives a --dir, and the
# same command resumes it. For example:
#   make spsa SPSA_ARGS="--openings UHO_4060_v4.epd --iterations 2000 --dir target/spsa/first"
SPSA_ARGS ?=

spsa: tune-build $(LICHESS_DEPS)
	$(LICHESS_VENV)/bin/python tools/spsa.py --engine $(TUNE_BINARY) $(SPSA_ARGS)
