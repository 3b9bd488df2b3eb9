# Harrier build entry points.
#   make              build the release binary (OpenBench: make EXE=<path> copies it there)
#   make test         everything CI runs: format check, clippy, all tests in release mode
#   make bench        the functional signature: <nodes> nodes <nps> nps

CARGO ?= cargo
EXE ?=
BINARY := target/release/harrier

.PHONY: all build test bench clean

all: build

build:
	$(CARGO) build --release
ifneq ($(EXE),)
	cp $(BINARY) $(EXE)
endif

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --release

bench: build
	$(BINARY) bench

clean:
	$(CARGO) clean
