//! Every search enhancement and parameter as a named option: UCI `setoption`, and the
//! tools' `--set Name=value`. One table, so the GUI, `bench`, `epd` and `ablate` agree.

use std::fmt;

use horizon_search::SearchConfig;
use horizon_search::config::{Algorithm, GhiMode, HistoryWeight, NullReduction};
use horizon_search::tt::Replacement;

/// How an option is presented to a GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin { min: i64, max: i64 },
    Combo(&'static [&'static str]),
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    UnknownName(String),
    BadValue {
        name: String,
        value: String,
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownName(name) => write!(f, "unknown option '{name}'"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(f, "option '{name}': '{value}' is not {expected}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A search option: its name, kind, and how to read and write it in a configuration.
pub struct SearchOption {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    get: fn(&SearchConfig) -> String,
    set: fn(&mut SearchConfig, &str) -> Option<()>,
}

impl SearchOption {
    /// The current value as text (`true`, `3`, `bucket`).
    pub fn get(&self, config: &SearchConfig) -> String {
        (self.get)(config)
    }

    /// Sets the value, checking its type and range.
    pub fn set(&self, config: &mut SearchConfig, value: &str) -> Result<(), OptionError> {
        let value = value.trim();
        let ok = match &self.kind {
            Kind::Spin { min, max } => value
                .parse::<i64>()
                .is_ok_and(|v| (*min..=*max).contains(&v)),
            Kind::Check => matches!(value.to_ascii_lowercase().as_str(), "true" | "false"),
            Kind::Combo(choices) => choices.iter().any(|c| c.eq_ignore_ascii_case(value)),
        };
        if ok && (self.set)(config, &value.to_ascii_lowercase()).is_some() {
            return Ok(());
        }
        let expected = match &self.kind {
            Kind::Spin { min, max } => format!("an integer from {min} to {max}"),
            Kind::Check => "true or false".to_owned(),
            Kind::Combo(choices) => format!("one of {}", choices.join(", ")),
        };
        Err(OptionError::BadValue {
            name: self.name.to_owned(),
            value: value.to_owned(),
            expected,
        })
    }

    /// The `option name ... type ...` line of the UCI handshake, with `default` as the value.
    pub fn uci_line(&self, default: &SearchConfig) -> String {
        let value = self.get(default);
        match &self.kind {
            Kind::Check => format!("option name {} type check default {value}", self.name),
            Kind::Spin { min, max } => {
                format!(
                    "option name {} type spin default {value} min {min} max {max}",
                    self.name
                )
            }
            Kind::Combo(choices) => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option name {} type combo default {value}{vars}", self.name)
            }
        }
    }
}

macro_rules! check {
    ($name:literal, $field:ident, $help:literal) => {
        SearchOption {
            name: $name,
            kind: Kind::Check,
            help: $help,
            get: |c| c.$field.to_string(),
            set: |c, v| {
                c.$field = v == "true";
                Some(())
            },
        }
    };
}

macro_rules! spin {
    ($name:literal, $field:ident, $ty:ty, $min:expr, $max:expr, $help:literal) => {
        SearchOption {
            name: $name,
            kind: Kind::Spin {
                min: $min,
                max: $max,
            },
            help: $help,
            get: |c| c.$field.to_string(),
            set: |c, v| {
                c.$field = v.parse::<$ty>().ok()?;
                Some(())
            },
        }
    };
}

const REPLACEMENTS: &[&str] = &["always", "depth", "two-tier", "bucket", "line"];

/// Every search option, in the order a GUI lists them.
pub static SEARCH_OPTIONS: &[SearchOption] = &[
    SearchOption {
        name: "Algorithm",
        kind: Kind::Combo(&["pvs", "alphabeta"]),
        help: "NegaScout/PVS or plain alpha-beta",
        get: |c| match c.algorithm {
            Algorithm::Pvs => "pvs".into(),
            Algorithm::AlphaBeta => "alphabeta".into(),
        },
        set: |c, v| {
            c.algorithm = if v == "pvs" {
                Algorithm::Pvs
            } else {
                Algorithm::AlphaBeta
            };
            Some(())
        },
    },
    check!("FailSoft", fail_soft, "return values outside the window"),
    spin!(
        "DepthStep",
        depth_step,
        u8,
        1,
        2,
        "iterative deepening step"
    ),
    check!(
        "MateDistancePruning",
        mate_distance_pruning,
        "mate-distance pruning"
    ),
    check!("TranspositionTable", tt, "transposition table"),
    SearchOption {
        name: "TTReplacement",
        kind: Kind::Combo(REPLACEMENTS),
        help: "table replacement policy",
        get: |c| c.tt_replacement.name().into(),
        set: |c, v| {
            c.tt_replacement = Replacement::from_name(v)?;
            Some(())
        },
    },
    check!(
        "TTWideKeys",
        tt_wide_keys,
        "verify entries with 128-bit keys"
    ),
    check!(
        "TTKeepDeeper",
        tt_keep_deeper,
        "keep another thread's deeper entry against a shallower, inexact result (Lazy SMP)"
    ),
    check!(
        "TTEarlyPrefetch",
        tt_early_prefetch,
        "prefetch the child's table entry before the move is made (speed)"
    ),
    check!(
        "EagerAccumulator",
        eager_accumulator,
        "update the network's accumulator while the table entry loads (speed)"
    ),
    check!("TTMove", tt_move, "table move first"),
    check!(
        "MopUp",
        mop_up,
        "classic evaluation: drive the defending king to the edge in won pawnless endings"
    ),
    check!(
        "KPKBitbase",
        kpk_bitbase,
        "classic evaluation: score king and pawn against king exactly"
    ),
    check!(
        "BareKingMate",
        bare_king_mate,
        "either evaluation: a bare king against mating material scored won, with a gradient to the mate"
    ),
    check!(
        "NetworkEndgameScale",
        network_endgame_scale,
        "network evaluation: scaled down in drawish endings by the classic endgame scale"
    ),
    spin!(
        "NetworkClassicBlend",
        network_classic_blend,
        i32,
        0,
        100,
        "network evaluation: percent of the classic evaluation mixed in with six men or fewer"
    ),
    check!(
        "Knowledge",
        knowledge,
        "knowledge heuristic: captures by SEE/MVV-LVA"
    ),
    check!("KnowledgeSEE", knowledge_see, "losing captures (SEE) last"),
    check!("Killers", killers, "killer heuristic"),
    check!("History", history, "history heuristic"),
    SearchOption {
        name: "HistoryWeight",
        kind: Kind::Combo(&["pow2", "squared", "gravity"]),
        help: "history update: bonus 2^depth or depth^2, or gravity (bonus and malus toward a bound)",
        get: |c| match c.history_weight {
            HistoryWeight::PowerOfTwo => "pow2".into(),
            HistoryWeight::Squared => "squared".into(),
            HistoryWeight::Gravity => "gravity".into(),
        },
        set: |c, v| {
            c.history_weight = match v {
                "pow2" => HistoryWeight::PowerOfTwo,
                "squared" => HistoryWeight::Squared,
                _ => HistoryWeight::Gravity,
            };
            Some(())
        },
    },
    check!(
        "HistoryAging",
        history_aging,
        "halve history between searches"
    ),
    check!(
        "Refutation",
        refutation,
        "refutation table: previous PV first"
    ),
    check!("Countermove", countermove, "countermove heuristic"),
    check!(
        "StagedGeneration",
        staged_generation,
        "generate quiet moves only after the captures (speed)"
    ),
    check!(
        "ButterflyHistory",
        butterfly_history,
        "main history by side, from- and to-square (not piece and to-square)"
    ),
    check!(
        "CaptureHistory",
        capture_history,
        "capture history orders captures within their SEE class"
    ),
    spin!(
        "CaptureHistoryDivisor",
        capture_history_divisor,
        i32,
        1,
        1_000,
        "capture-history score / divisor is added to MVV-LVA"
    ),
    check!(
        "ContinuationHistory",
        continuation_history,
        "continuation histories (1 and 2 plies back) in ordering, LMR and pruning"
    ),
    spin!(
        "ContinuationLMRDivisor",
        continuation_lmr_divisor,
        i32,
        0,
        1_000_000,
        "LMR changes by -(continuation score)/divisor plies, at most 2 (0: off)"
    ),
    spin!(
        "ContinuationPruneMargin",
        continuation_prune_margin,
        i32,
        0,
        1_000_000,
        "prune quiets at depth <= 3 with continuation score below -margin*depth (0: off)"
    ),
    check!("Aspiration", aspiration, "aspiration windows"),
    spin!(
        "AspirationT1",
        aspiration_t1,
        i32,
        1,
        10_000,
        "first aspiration half-width"
    ),
    spin!(
        "AspirationT2",
        aspiration_t2,
        i32,
        1,
        10_000,
        "second aspiration half-width"
    ),
    spin!(
        "AspirationGrowth",
        aspiration_growth,
        i32,
        0,
        400,
        "gradual widening: the window follows each fail, half-width from T1 growing by this percent (0: T1, T2, open)"
    ),
    check!("NullMove", null_move, "null-move pruning"),
    SearchOption {
        name: "NullMoveR",
        kind: Kind::Combo(&["2", "3", "adaptive", "dynamic"]),
        help: "null-move reduction",
        get: |c| match c.null_reduction {
            NullReduction::Two => "2".into(),
            NullReduction::Three => "3".into(),
            NullReduction::Adaptive => "adaptive".into(),
            NullReduction::Dynamic => "dynamic".into(),
        },
        set: |c, v| {
            c.null_reduction = match v {
                "2" => NullReduction::Two,
                "3" => NullReduction::Three,
                "dynamic" => NullReduction::Dynamic,
                _ => NullReduction::Adaptive,
            };
            Some(())
        },
    },
    spin!(
        "NullMoveAdaptiveDepth",
        null_adaptive_depth,
        i32,
        1,
        64,
        "R=3 above this depth"
    ),
    spin!(
        "NullMoveMinDepth",
        null_min_depth,
        i32,
        1,
        64,
        "no null move below this depth"
    ),
    spin!(
        "NullMoveMinPieces",
        null_min_pieces,
        u32,
        1,
        8,
        "null move only with this many pieces besides pawns and king"
    ),
    check!(
        "NullMoveMobilePieces",
        null_mobile_pieces,
        "count only pieces that can move for the null move's piece rules"
    ),
    spin!(
        "NullMoveMinMobility",
        null_min_mobility,
        u32,
        0,
        64,
        "no null move where the pieces besides pawns and king have fewer moves (0: off)"
    ),
    check!(
        "NullMoveVerification",
        null_verification,
        "verify null-move cutoffs at high depth"
    ),
    spin!(
        "NullMoveVerificationDepth",
        null_verification_depth,
        i32,
        1,
        64,
        "verify null-move cutoffs from this depth"
    ),
    check!(
        "NullMoveVerificationEndgame",
        null_verification_endgame,
        "verify every null-move cutoff where the side to move has at most two pieces"
    ),
    check!(
        "NullMoveStoreTT",
        null_store_tt,
        "store null-move cutoffs in the table"
    ),
    check!("LMR", lmr, "late move reductions"),
    spin!(
        "LMRFullDepthMoves",
        lmr_full_depth_moves,
        usize,
        0,
        64,
        "moves never reduced"
    ),
    spin!(
        "LMRMinDepth",
        lmr_min_depth,
        i32,
        1,
        64,
        "no reduction below this depth"
    ),
    check!(
        "LMRLogTable",
        lmr_log_table,
        "log-formula reductions (else one ply)"
    ),
    spin!(
        "LMRBase",
        lmr_base,
        i32,
        0,
        400,
        "log-formula reduction: constant, in hundredths of a ply"
    ),
    spin!(
        "LMRDivisor",
        lmr_divisor,
        i32,
        50,
        1000,
        "log-formula reduction: divisor of ln(depth)·ln(move), in hundredths"
    ),
    check!(
        "ReverseFutility",
        reverse_futility,
        "reverse futility pruning (static null move)"
    ),
    spin!(
        "ReverseFutilityMargin",
        reverse_futility_margin,
        i32,
        0,
        1000,
        "margin per ply"
    ),
    spin!(
        "ReverseFutilityDepth",
        reverse_futility_depth,
        i32,
        0,
        64,
        "deepest depth pruned"
    ),
    spin!(
        "ReverseFutilityMinMobility",
        reverse_futility_min_mobility,
        u32,
        0,
        64,
        "no reverse futility where the pieces besides pawns and king have fewer moves (0: off)"
    ),
    check!("Futility", futility, "futility pruning of quiet moves"),
    spin!(
        "FutilityMargin",
        futility_margin,
        i32,
        0,
        1000,
        "margin per ply"
    ),
    spin!(
        "FutilityDepth",
        futility_depth,
        i32,
        0,
        64,
        "deepest depth pruned"
    ),
    check!(
        "LateMovePruning",
        late_move_pruning,
        "skip quiet moves after 3+depth^2"
    ),
    spin!(
        "LateMovePruningDepth",
        late_move_pruning_depth,
        i32,
        0,
        64,
        "deepest depth pruned"
    ),
    check!(
        "Razoring",
        razoring,
        "a static eval far below alpha asks quiescence; its fail-low ends the node"
    ),
    spin!(
        "RazoringDepth",
        razoring_depth,
        i32,
        0,
        64,
        "deepest depth razored"
    ),
    spin!(
        "RazoringMargin",
        razoring_margin,
        i32,
        0,
        2000,
        "margin per ply below alpha"
    ),
    check!(
        "Improving",
        improving,
        "a rising static eval (vs two plies before) feeds RFP, futility, LMP and LMR"
    ),
    check!(
        "SEEPruning",
        see_pruning,
        "skip moves losing material by SEE at low depth"
    ),
    spin!(
        "SEEPruningDepth",
        see_pruning_depth,
        i32,
        0,
        64,
        "deepest depth SEE-pruned"
    ),
    spin!(
        "SEEQuietMargin",
        see_quiet_margin,
        i32,
        0,
        1000,
        "quiet moves pruned below SEE -margin*depth"
    ),
    spin!(
        "SEECaptureMargin",
        see_capture_margin,
        i32,
        0,
        1000,
        "captures pruned below SEE -margin*depth^2"
    ),
    check!(
        "SEECheckSpare",
        see_check_spare,
        "checking moves SEE-pruned only below -SEECheckMargin*depth"
    ),
    spin!(
        "SEECheckMargin",
        see_check_margin,
        i32,
        0,
        2000,
        "SEE margin per ply for checking moves (SEECheckSpare)"
    ),
    spin!(
        "SEEQuietQuadratic",
        see_quiet_quadratic,
        i32,
        0,
        500,
        "quiet moves pruned below SEE -value*depth^2 instead of -SEEQuietMargin*depth (0: off)"
    ),
    check!(
        "HistoryPruning",
        history_pruning,
        "skip quiet moves with very bad history at low depth"
    ),
    spin!(
        "HistoryPruningDepth",
        history_pruning_depth,
        i32,
        0,
        64,
        "deepest depth history-pruned"
    ),
    spin!(
        "HistoryPruningMargin",
        history_pruning_margin,
        i32,
        0,
        1_000_000,
        "pruned below history -margin*depth"
    ),
    check!(
        "ReducedDepthPruning",
        reduced_depth_pruning,
        "futility, history and SEE pruning of quiets at the LMR-reduced depth"
    ),
    check!(
        "ProbCut",
        probcut,
        "ProbCut: good captures beating beta+margin ProbCutReduction plies shallower cut"
    ),
    spin!(
        "ProbCutDepth",
        probcut_depth,
        i32,
        1,
        64,
        "shallowest depth tried"
    ),
    spin!(
        "ProbCutMargin",
        probcut_margin,
        i32,
        0,
        2000,
        "margin over beta"
    ),
    spin!(
        "ProbCutReduction",
        probcut_reduction,
        i32,
        1,
        8,
        "plies the verifying search is shallower than the node"
    ),
    check!(
        "ProbCutTableGuard",
        probcut_table_guard,
        "no ProbCut where a table search of depth-3 or more stayed below beta+margin"
    ),
    check!(
        "Singular",
        singular,
        "singular extensions, multi-cut and negative extensions"
    ),
    spin!(
        "SingularDepth",
        singular_depth,
        i32,
        1,
        64,
        "shallowest depth tested"
    ),
    spin!(
        "SingularMargin",
        singular_margin,
        i32,
        0,
        1000,
        "exclusion window: table value - margin*depth/8"
    ),
    spin!(
        "SingularDoubleMargin",
        singular_double_margin,
        i32,
        0,
        1000,
        "double extension when short by this much more"
    ),
    spin!(
        "SingularDoubleLimit",
        singular_double_limit,
        u8,
        0,
        64,
        "most double extensions per path"
    ),
    check!(
        "LMRRefined",
        lmr_refined,
        "LMR follows history, less at PV nodes, more at cut nodes"
    ),
    check!(
        "TTPv",
        tt_pv,
        "late moves reduced a ply less at nodes on or once on the PV (table-marked)"
    ),
    check!(
        "LMRTableCapture",
        lmr_tt_capture,
        "quiet late moves reduced a ply more where the table move is a capture"
    ),
    check!(
        "LMRCaptures",
        lmr_captures,
        "LMR also reduces losing captures (SEE < 0) as it reduces quiet moves"
    ),
    check!(
        "RootLMR",
        root_lmr,
        "LMR also reduces the root's late quiet moves, as at other PV nodes"
    ),
    spin!(
        "LMRHistoryDivisor",
        lmr_history_divisor,
        i32,
        0,
        1_000_000,
        "LMR changes by -history/divisor plies, at most 2 (0: off)"
    ),
    spin!(
        "LMRPVLess",
        lmr_pv_less,
        i32,
        0,
        4,
        "LMRRefined: plies less at PV nodes"
    ),
    spin!(
        "LMRCutMore",
        lmr_cut_more,
        i32,
        0,
        4,
        "LMRRefined: plies more at expected cut nodes"
    ),
    check!(
        "LMRResearchDepth",
        lmr_research_depth,
        "LMR re-searches a ply deeper or shallower as the reduced result beat the best so far"
    ),
    spin!(
        "LMRDeeperMargin",
        lmr_deeper_margin,
        i32,
        0,
        1000,
        "LMRResearchDepth: a ply deeper above best + this"
    ),
    spin!(
        "LMRShallowerMargin",
        lmr_shallower_margin,
        i32,
        0,
        1000,
        "LMRResearchDepth: a ply shallower below best + this"
    ),
    check!(
        "SparePassedPushes",
        spare_passed_pushes,
        "never prune or reduce quiet passed-pawn pushes to the 6th/7th rank"
    ),
    check!(
        "TTValueEval",
        tt_value_eval,
        "pruning uses the table's value where its bound beats the static eval"
    ),
    check!(
        "CorrectionHistory",
        correction_history,
        "pawn-structure correction of the eval used for pruning"
    ),
    check!(
        "CorrectionNonPawn",
        correction_non_pawn,
        "correction tables keyed by each side's non-pawn pieces too"
    ),
    check!(
        "CorrectionResidual",
        correction_residual,
        "with CorrectionNonPawn: each table learns the error the others leave"
    ),
    spin!(
        "CorrectionMax",
        correction_max,
        i32,
        0,
        128,
        "largest correction one table gives (eval units)"
    ),
    check!(
        "IIR",
        iir,
        "internal iterative reduction: one ply less without a table move"
    ),
    spin!(
        "IIRMinDepth",
        iir_min_depth,
        i32,
        1,
        64,
        "shallowest depth reduced"
    ),
    check!(
        "Syzygy",
        syzygy,
        "probe the Syzygy tables of SyzygyPath in the search and at the root"
    ),
    spin!(
        "SyzygyProbeDepth",
        syzygy_probe_depth,
        i32,
        1,
        100,
        "shallowest remaining depth probed"
    ),
    check!("ExtendCheck", extend_check, "check extension"),
    check!(
        "ExtendCheckSEE",
        extend_check_see,
        "check extension only for checks that do not lose material (SEE >= 0)"
    ),
    check!(
        "ExtendSingleReply",
        extend_single_reply,
        "single-reply extension"
    ),
    check!("ExtendRecapture", extend_recapture, "recapture extension"),
    check!(
        "ExtendPawnSeventh",
        extend_pawn_seventh,
        "pawn-to-seventh extension"
    ),
    spin!(
        "ExtensionPlyFactor",
        extension_ply_factor,
        u8,
        1,
        4,
        "extension cap, x depth"
    ),
    check!("Quiescence", quiescence, "quiescence search"),
    check!(
        "QSearchSEE",
        qs_see_filter,
        "skip losing captures in quiescence"
    ),
    check!(
        "QSearchChecks",
        qs_checks,
        "quiet checks at the first quiescence ply"
    ),
    check!(
        "DeltaPruning",
        qs_delta_pruning,
        "delta pruning in quiescence"
    ),
    spin!(
        "DeltaMargin",
        qs_delta_margin,
        i32,
        0,
        2_000,
        "delta pruning margin"
    ),
    spin!(
        "QSearchMoveLimit",
        qs_move_limit,
        u32,
        0,
        64,
        "quiescence skips captures after this many moves unless they recapture or promote (0: off)"
    ),
    check!("QSearchTT", qs_tt, "table probing in quiescence"),
    check!("PreSearch", presearch, "pre-searching (Hlynka & Schaeffer)"),
    spin!(
        "PreSearchRisk",
        presearch_risk,
        i32,
        1,
        16,
        "largest pre-search extension"
    ),
    SearchOption {
        name: "PreSearchNearRoot",
        kind: Kind::Spin { min: 0, max: 127 },
        help: "pre-search within this many plies of the root (0: unlimited)",
        get: |c| c.presearch_near_root.unwrap_or(0).to_string(),
        set: |c, v| {
            let n: u32 = v.parse().ok()?;
            c.presearch_near_root = (n > 0).then_some(n);
            Some(())
        },
    },
    spin!(
        "PreSearchNearLeaf",
        presearch_near_leaf,
        i32,
        1,
        127,
        "pre-search within this many plies of the horizon"
    ),
    check!("ETC", etc, "enhanced transposition cutoffs"),
    spin!(
        "ETCMinDepth",
        etc_min_depth,
        i32,
        1,
        64,
        "ETC only at this depth and above"
    ),
    SearchOption {
        name: "GHI",
        kind: Kind::Combo(&["mark", "ignore", "exact"]),
        help: "repetition-dependent values: mark and refuse, ignore, or reuse along paths with the same history (exact)",
        get: |c| c.ghi.name().into(),
        set: |c, v| {
            c.ghi = GhiMode::from_name(v)?;
            Some(())
        },
    },
    check!(
        "UpcomingRepetition",
        upcoming_repetition,
        "raise alpha to a draw when a move repeats the path"
    ),
    spin!(
        "FiftyMoveGuard",
        fifty_move_guard,
        u32,
        0,
        100,
        "no table cutoffs this close to the fifty-move rule"
    ),
    check!(
        "SMPBestThread",
        smp_best_thread,
        "play the deepest thread's line, not always the main thread's"
    ),
    check!(
        "SMPHelperSkip",
        smp_helper_skip,
        "helpers 1, 3, 5... search every other depth, ahead of the main thread"
    ),
    spin!(
        "SMPHelperLMR",
        smp_helper_lmr,
        i32,
        -200,
        200,
        "helpers 1, 3, 5... add this to LMRBase (hundredths of a ply): another tree shape"
    ),
    check!(
        "SMPDefer",
        smp_defer,
        "put off moves another thread is searching (simplified ABDADA)"
    ),
    check!(
        "SMPHelperSync",
        smp_helper_sync,
        "helpers never search a depth the main thread has completed"
    ),
    check!(
        "SMPRootOrder",
        smp_root_order,
        "helpers search the root moves after the first in reverse order"
    ),
];

/// The option called `name` (case-insensitive, as UCI asks).
pub fn find(name: &str) -> Option<&'static SearchOption> {
    SEARCH_OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// Applies `Name=value`.
pub fn apply_assignment(config: &mut SearchConfig, assignment: &str) -> Result<(), OptionError> {
    let (name, value) = assignment
        .split_once('=')
        .ok_or_else(|| OptionError::BadValue {
            name: assignment.to_owned(),
            value: String::new(),
            expected: "Name=value".to_owned(),
        })?;
    find(name)
        .ok_or_else(|| OptionError::UnknownName(name.trim().to_owned()))?
        .set(config, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_round_trips_its_default() {
        let defaults = SearchConfig::default();
        for option in SEARCH_OPTIONS {
            let mut config = SearchConfig::bare();
            option
                .set(&mut config, &option.get(&defaults))
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                option.get(&config),
                option.get(&defaults),
                "{}",
                option.name
            );
        }
        let mut config = SearchConfig::bare();
        for option in SEARCH_OPTIONS {
            option
                .set(&mut config, &option.get(&defaults))
                .expect("valid");
        }
        assert_eq!(
            config,
            SearchConfig {
                multipv: config.multipv,
                ..defaults
            }
        );
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in SEARCH_OPTIONS.iter().enumerate() {
            for b in &SEARCH_OPTIONS[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{}", a.name);
            }
        }
    }

    #[test]
    fn bad_values_are_refused_and_leave_the_config() {
        let mut config = SearchConfig::default();
        let before = config.clone();
        assert!(apply_assignment(&mut config, "NullMove=maybe").is_err());
        assert!(apply_assignment(&mut config, "LMRMinDepth=0").is_err());
        assert!(apply_assignment(&mut config, "LMRMinDepth=-3").is_err());
        assert!(apply_assignment(&mut config, "TTReplacement=random").is_err());
        assert!(apply_assignment(&mut config, "LMRDivisor=0").is_err());
        assert!(apply_assignment(&mut config, "NullMoveR=4").is_err());
        assert!(matches!(
            apply_assignment(&mut config, "Nonsense=1"),
            Err(OptionError::UnknownName(_))
        ));
        assert!(apply_assignment(&mut config, "NullMove").is_err());
        assert_eq!(config, before);
        apply_assignment(&mut config, "nullmove=FALSE").expect("case-insensitive");
        apply_assignment(&mut config, "PreSearchNearRoot=5").expect("valid");
        apply_assignment(&mut config, "NullMoveR=Dynamic").expect("valid");
        apply_assignment(&mut config, "LMRDivisor=180").expect("valid");
        assert_eq!(config.null_reduction, NullReduction::Dynamic);
        assert_eq!(config.lmr_divisor, 180);
        assert!(!config.null_move);
        assert_eq!(config.presearch_near_root, Some(5));
    }
}
