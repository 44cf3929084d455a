# OpenBench and friends: `make EXE=<path>` builds the engine to $(EXE).
# `make pgo EXE=<path>` builds it guided by a profile of `horizon bench` (docs/speed.md).
EXE ?= horizon
TARGET_CPU = native

all:
	cargo rustc --release --bin horizon -- -C target-cpu=$(TARGET_CPU) --emit link=$(EXE)

# Profile-guided build: an instrumented build searches the bench positions (classic and
# network evaluation), directly and through the UCI front-end (`bench --uci`, the path games
# take: its deeper run is with the network, games' default), and the profile it writes
# guides the final build.
# The same code, so the same node counts; 6-9% faster fixed-node searches over UCI, 11% in
# `bench` (docs/speed.md). Needs the llvm-profdata of rustc's own LLVM:
# `rustup component add llvm-tools-preview`.
PGO_DIR := $(CURDIR)/target/pgo
PROFDATA ?= $(shell find "$$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1)

pgo:
	@test -n "$(PROFDATA)" || { echo "llvm-profdata not found: rustup component add llvm-tools-preview" >&2; exit 1; }
	rm -rf '$(PGO_DIR)/data'
	RUSTFLAGS="-Cprofile-generate=$(PGO_DIR)/data -Ctarget-cpu=$(TARGET_CPU)" \
		cargo build --release --bin horizon --target-dir '$(PGO_DIR)/gen'
	'$(PGO_DIR)/gen/release/horizon' bench 11 > /dev/null
	'$(PGO_DIR)/gen/release/horizon' bench 9 --nnue > /dev/null
	'$(PGO_DIR)/gen/release/horizon' bench 11 --uci --nnue > /dev/null
	'$(PGO_DIR)/gen/release/horizon' bench 9 --uci > /dev/null
	"$(PROFDATA)" merge -o '$(PGO_DIR)/horizon.profdata' '$(PGO_DIR)/data'
	RUSTFLAGS="-Cprofile-use=$(PGO_DIR)/horizon.profdata -Ctarget-cpu=$(TARGET_CPU)" \
		cargo build --release --bin horizon --target-dir '$(PGO_DIR)/use'
	cp '$(PGO_DIR)/use/release/horizon' '$(EXE)'

.PHONY: all pgo
