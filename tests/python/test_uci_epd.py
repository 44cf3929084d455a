"""Unit tests of uci_epd.py's pure parts: the lenient EPD reader and the PV/bestmove check."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_epd  # noqa: E402

WAC1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -"


def test_reads_bm_am_and_id():
    p = uci_epd.parse_epd_line(WAC1 + ' bm Qg6; id "WAC.001";')
    assert p is not None
    assert p.best == ["g3g6"] and p.avoid == [] and p.ident == "WAC.001"
    p = uci_epd.parse_epd_line(WAC1 + " am Qxg7+; bm Qg6 Nf7+;")
    assert p.avoid == ["g3g7"] and p.best == ["g3g6", "e5f7"]


def test_quirks_of_suites_in_the_wild():
    # Bratko-Kopec: a detached check sign and NUL bytes.
    p = uci_epd.parse_epd_line("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - ; bm Qd1 + ; id BK.01\x00")
    assert p is not None and p.best == ["d6d1"] and p.ident == "BK.01"
    # Zugzwang suite: a comment after the last semicolon.
    p = uci_epd.parse_epd_line('8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - bm Nxd5; id "ZPTS.01"; CCC post 27.4.2004')
    assert p is not None and p.best == ["f4d5"]
    # Perft records have no bm/am; blank lines and comments are skipped.
    assert uci_epd.parse_epd_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66") is None
    assert uci_epd.parse_epd_line("   ") is None
    assert uci_epd.parse_epd_line("# comment") is None


def test_solved():
    p = uci_epd.EpdPosition("", ["g3g6"], [], "")
    assert uci_epd.solved(p, "g3g6") and not uci_epd.solved(p, "e5f7")
    p = uci_epd.EpdPosition("", [], ["g3g7"], "")
    assert uci_epd.solved(p, "g3g6") and not uci_epd.solved(p, "g3g7")


FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_matching_pv_passes():
    lines = [
        "info depth 1 score cp 20 pv e2e4",
        "info depth 2 score cp 10 pv d2d4 d7d5",
        "bestmove d2d4 ponder d7d5",
    ]
    c = uci_epd.check_search(FEN, lines)
    assert (c.bestmove, c.mismatch, c.illegal_pvs, c.illegal_ponder) == ("d2d4", False, 0, False)


def test_stale_pv_is_a_mismatch():
    lines = ["info depth 2 score cp 10 pv d2d4 d7d5", "bestmove e2e4"]
    assert uci_epd.check_search(FEN, lines).mismatch
    # No PV at all is a mismatch too.
    assert uci_epd.check_search(FEN, ["info depth 1 nodes 20", "bestmove e2e4"]).mismatch


def test_multipv_lines_other_than_the_first_do_not_count():
    lines = [
        "info depth 3 multipv 1 score cp 10 pv e2e4 e7e5",
        "info depth 3 multipv 2 score cp 5 pv d2d4",
        "info string d2d4 pv e2e4",
        "bestmove e2e4 ponder e7e5",
    ]
    assert not uci_epd.check_search(FEN, lines).mismatch
    lines[0] = "info depth 3 multipv 1 score cp 10 pv g1f3"
    assert uci_epd.check_search(FEN, lines).mismatch


def test_illegal_pv_and_ponder_are_counted():
    lines = ["info depth 2 score cp 0 pv e2e4 e2e4", "info depth 2 multipv 2 score cp 0 pv e2e5", "bestmove e2e4 ponder e2e4"]
    c = uci_epd.check_search(FEN, lines)
    assert c.illegal_pvs == 2 and c.illegal_ponder


def test_command_line_specs():
    assert uci_epd.parse_suite("../shared/epd/wac.epd:7,23,61") == ("../shared/epd/wac.epd", [7, 23, 61])
    assert uci_epd.parse_engine("toga=/usr/games/toga2 -x") == ("toga", "/usr/games/toga2 -x")
    assert uci_epd.parse_option("*:Hash=64") == ("*", "Hash", "64")
    for bad, parse in [("wac.epd", uci_epd.parse_suite), ("wac.epd:0", uci_epd.parse_suite), ("x", uci_epd.parse_engine), ("a:b", uci_epd.parse_option)]:
        try:
            parse(bad)
        except Exception:
            continue
        raise AssertionError(f"{bad} accepted")


def test_csv_row_records_the_position_and_whether_it_was_solved():
    p = uci_epd.EpdPosition(FEN, ["e2e4", "d2d4"], ["g1h3"], "start")
    hit = uci_epd.check_search(FEN, ["info depth 1 score cp 20 pv d2d4", "bestmove d2d4"])
    miss = uci_epd.check_search(FEN, ["info depth 1 score cp 20 pv g1h3", "bestmove g1h3"])
    row = uci_epd.csv_row("toga", "wac.epd", 500, 7, p, hit, 0.95)
    assert len(row) == len(uci_epd.CSV_HEADER)
    assert row == ["toga", "wac.epd", "500", "7", "start", FEN, "e2e4 d2d4", "g1h3", "d2d4", "1", "0.950"]
    assert uci_epd.csv_row("toga", "wac.epd", 500, 7, p, miss, 1.0)[8:10] == ["g1h3", "0"]


def test_read_fens_takes_every_position(tmp_path):
    epd = tmp_path / "x.epd"
    epd.write_text(
        '8/8/8/8/8/8/k7/2K5 w - - bm Kb1; id "a";\n\n# comment\nnot a fen at all\n'
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        "4k3/8/8/8/8/8/8/4K2R w K -\x00\n"
    )
    assert uci_epd.read_fens(str(epd)) == [
        "8/8/8/8/8/8/k7/2K5 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    ]
