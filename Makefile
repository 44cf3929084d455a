# OpenBench and friends: `make EXE=<path>` builds the engine to $(EXE), guided by a profile
# of `horizon bench` where rustc's llvm-profdata is installed (`make pgo`, below), else plain
# (`make plain`). The same code either way, so the same node counts and moves; the guided
# build searches 6-12% more nodes a second and passed its 2+0.02 SPRT (docs/speed.md).
EXE ?= horizon
TARGET_CPU = native
PGO_DIR := $(CURDIR)/target/pgo
PROFDATA ?= $(shell find "$$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1)

ifneq ($(PROFDATA),)
all: pgo
else
all: plain
	@echo "llvm-profdata not found (rustup component add llvm-tools-preview): built plain" >&2
endif

plain:
	cargo rustc --release --bin horizon -- -C target-cpu=$(TARGET_CPU) --emit link=$(EXE)

# Profile-guided build: an instrumented build searches the bench positions (classic and
# network evaluation), directly and through the UCI front-end (`bench --uci`, the path games
# take: its deeper run is with the network, games' default), and the profile it writes
# guides the final build. Needs the llvm-profdata of rustc's own LLVM:
# `rustup component add llvm-tools-preview`.
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

.PHONY: all plain pgo
