# Harrier build entry points.
#   make              build the release binary (OpenBench: make EXE=<path> copies it there)
#   make test         everything CI runs: format check, clippy, all tests in release mode
#   make bench        the functional signature: <nodes> nodes <nps> nps
#   make native       a build for this machine's CPU only: target/native/release/harrier

CARGO ?= cargo
EXE ?=
BINARY := target/release/harrier

.PHONY: all build native test bench clean

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

clean:
	$(CARGO) clean
