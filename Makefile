# OpenBench and friends: `make EXE=<path>` builds the engine to $(EXE).
EXE ?= horizon

all:
	cargo rustc --release --bin horizon -- -C target-cpu=native --emit link=$(EXE)

.PHONY: all
