# Harrier build entry points.
#   make              build the release binary (OpenBench: make EXE=<path> copies it there)
#   make test         everything CI runs: format check, clippy, all tests in release mode
#   make bench        the functional signature: <nodes> nodes <nps> nps
#   make native       a build for this machine's CPU only: target/native/release/harrier
#   make lichess-test games through python-chess as lichess-bot plays them (README, lichess-bot);
#                     installs python-chess and PyYAML into target/lichess-venv the first time

CARGO ?= cargo
EXE ?=
BINARY := target/release/harrier

LICHESS_VENV := target/lichess-venv
# Written once python-chess and PyYAML are installed (lichess-bot's requirements.txt versions).
LICHESS_DEPS := $(LICHESS_VENV)/installed

.PHONY: all build native test bench lichess-test clean

all: build

build:
	$(CARGO) build --release
ifneq ($(EXE),)
	cp $(BINARY) $(EXE)
endif

# The same build tuned for the CPU it is built on (not portable to older CPUs).
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release --target-dir target/native

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --release

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
