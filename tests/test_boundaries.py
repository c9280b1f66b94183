"""Issue 36's reproducers at the boundaries: each gives its own clean error, or the
good rows are kept and the bad ones reported (see docs/robustness.md)."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest

import mjstats
from mjstats import cli
from mjstats.errors import InvalidArgumentError, InvalidHandError, InvalidTileError

GOOD = "123m456p789s11z22z+2z"
CONTRADICTS = "1112345678999m+1m last-of-kind"  # the winning 1m is not the last copy


def _one_line_error(capsys, code: int, expected: int = 1) -> str:
    err = capsys.readouterr().err
    assert code == expected, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


# -- item 4: seeds and offsets ------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"seed": 2**64}, "seed must be an integer 0 to 2\\*\\*64-1"),
        ({"seed": -1}, "seed must be"),
        ({"seed": 1.5}, "seed must be"),
        ({"seed": 1, "first": -5}, "first must be"),
        ({"seed": 1, "first": 2**63}, "first must be"),
    ],
)
def test_play_games_refuses_seeds_and_offsets_out_of_range(kwargs, match):
    from mjstats.games import GameOptionError, play_games

    with pytest.raises(GameOptionError, match=match):
        play_games(1, **kwargs)


def test_the_largest_seed_is_accepted_everywhere():
    from mjstats.arguments import MAX_SEED, check_seed
    from mjstats.studies.sample import SampleStudy

    assert check_seed(MAX_SEED) == MAX_SEED
    assert SampleStudy(n=1, seed=MAX_SEED).seed == MAX_SEED
    with pytest.raises(InvalidArgumentError):
        SampleStudy(n=1, seed=MAX_SEED + 1)


@pytest.mark.parametrize(
    "args",
    [
        ["study", "--seed", str(2**64)],
        ["study", "--seed", "-1"],
        ["rules", "diff", "mcr", "mcr:wmo-2014", "--seed", "-1"],
        ["rules", "diff", "mcr", "mcr:wmo-2014", "--n", "99999999999999"],
        ["analyze", "123m456p789s1122z", "--seed", str(2**64)],
    ],
)
def test_cli_refuses_seeds_and_counts_in_one_line(capsys, args):
    err = _one_line_error(capsys, cli.main(args), expected=2)
    assert "2**64-1" in err or "10,000,000" in err


# -- item 12: the documented error classes --------------------------------------------------


@pytest.mark.parametrize("form", [3, "bogus", "REGULAR", [], ["regular", None]])
def test_shanten_form_errors_list_the_forms(form):
    with pytest.raises(InvalidArgumentError, match="regular, seven_pairs"):
        mjstats.shanten(mjstats.parse_tiles("123m456p789s1122z"), form=form)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ruleset": "nope"},
        {"ruleset": 3},
        {"wall": ["shared"]},
        {"round_wind": np.array([0, 1])},
        {"round_wind": 4},
        {"policy": np.zeros((2, 2))},
        {"wall": "botzone", "records": "/no/such/directory/games.txt"},
        {"wall": "botzone", "records": 12.5},
    ],
)
def test_play_games_raises_game_option_error(kwargs):
    from mjstats.games import GameOptionError, play_games

    with pytest.raises(GameOptionError):
        play_games(1, seed=1, **kwargs)


# -- item 6: variation selectors ------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["123m\ufe0f456p789s11z22z+2z", f"{GOOD}\ufe0f", "\ufe0e" + GOOD, "E\ufe0fEE"]
)
def test_variation_selector_after_a_letter_is_an_error(text):
    with pytest.raises(InvalidTileError, match="variation selector"):
        mjstats.parse_hand(text) if "+" in text else mjstats.parse_tiles(text)


def test_variation_selector_after_a_glyph_is_ignored():
    glyphs = "".join(chr(0x1F007 + i) + "\ufe0f" for i in range(3))  # 🀇🀈🀉
    assert mjstats.parse_tiles(glyphs).tolist() == mjstats.parse_tiles("123m").tolist()


# -- items 7, 8, 10, 11: bad rows and files ---------------------------------------------------


def _bad_rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_a_contradicting_context_is_a_bad_row_of_score_file(tmp_path, capsys):
    src = tmp_path / "ctx.txt"
    src.write_text(f"{GOOD}\n" * 3 + CONTRADICTS + "\n", encoding="utf-8")
    code = cli.main(["score", "--file", str(src), "--out", str(tmp_path / "o.csv")])
    assert code == 1, capsys.readouterr().err
    assert pd.read_csv(tmp_path / "o.csv")["row"].tolist() == [0, 1, 2]
    (bad,) = _bad_rows(tmp_path / "o.csv.bad.csv")
    assert bad["row"] == "3" and bad["text"] == CONTRADICTS and "last_of_kind" in bad["error"]


def test_a_contradicting_context_is_a_bad_row_of_the_accessor():
    s = pd.Series([GOOD, CONTRADICTS, "\ud800", "x", GOOD], index=list("abcde"), dtype=object)
    scores = s.mj.score(errors="coerce", fan_columns="none")
    assert scores["error"].isna().tolist() == [True, False, False, False, True]
    assert scores.loc[["a", "e"], "total"].tolist() == [11, 11]
    assert "last_of_kind" in scores.loc["b", "error"]
    with pytest.raises(mjstats.InvalidContextError, match="row 1"):
        pd.Series([GOOD, CONTRADICTS]).mj.score()


def test_a_bare_cr_round_trips_through_the_bad_rows_file(tmp_path, capsys):
    src = tmp_path / "cr.txt"
    src.write_bytes(f"{GOOD}\nx\ry\n{GOOD}\n".encode())
    assert cli.main(["score", "--file", str(src), "--out", str(tmp_path / "o.csv")]) == 1
    capsys.readouterr()
    (bad,) = _bad_rows(tmp_path / "o.csv.bad.csv")
    assert bad["row"] == "1" and bad["text"] == "x\ry"
    assert pd.read_csv(tmp_path / "o.csv.bad.csv")["text"].tolist() == ["x\ry"]


def test_a_lone_surrogate_is_a_bad_row():
    batch, bad = mjstats.HandBatch.from_text([GOOD, "\ud800"], errors="coerce")
    assert len(batch) == 1 and bad["row"].tolist() == [1]
    assert bad["text"].tolist() == ["\\ud800"] and "surrogate" in bad["error"][0]


def test_invalid_utf8_in_a_csv_is_a_bad_row(tmp_path, capsys):
    src = tmp_path / "bad.csv"
    src.write_bytes(f"hand\n{GOOD}\n".encode() + b"\xff\xfe12m\n")
    assert cli.main(["score", "--file", str(src), "--out", str(tmp_path / "o.csv")]) == 1
    capsys.readouterr()
    assert pd.read_csv(tmp_path / "o.csv")["row"].tolist() == [0]
    (bad,) = _bad_rows(tmp_path / "o.csv.bad.csv")
    assert bad["row"] == "1" and "not UTF-8" in bad["error"]


@pytest.mark.parametrize("kind", ["empty", "garbage", "truncated"])
def test_unreadable_parquet_is_one_line(tmp_path, capsys, kind):
    pytest.importorskip("pyarrow")
    good = tmp_path / "good.parquet"
    pd.DataFrame({"hand": [GOOD] * 100}).to_parquet(good)
    data = {"empty": b"", "garbage": b"PAR1garbage", "truncated": good.read_bytes()[:300]}[kind]
    src = tmp_path / "in.parquet"
    src.write_bytes(data)
    err = _one_line_error(capsys, cli.main(["score", "--file", str(src), "--out", "-"]))
    assert "not a readable Parquet file" in err
    with pytest.raises(InvalidHandError, match="Parquet"):
        from mjstats.score_file import score_file

        score_file(src, tmp_path / "o.csv")


def test_a_broken_csv_is_one_line(tmp_path, capsys):
    src = tmp_path / "q.csv"
    src.write_text(f'hand\n{GOOD}\n"unterminated\n', encoding="utf-8")
    err = _one_line_error(capsys, cli.main(["score", "--file", str(src), "--out", "-"]))
    assert "not a readable CSV file" in err


# -- item 9: a user policy that raises ------------------------------------------------------


def _raising_policy(seat_to_fail: int):
    from numba import njit

    @njit
    def own(view, acts, n_acts, ctx, tab, work):
        if n_acts > 3:
            raise ValueError("my policy broke")
        return acts[n_acts - 1]

    @njit
    def answer(view, acts, n_acts, ctx, tab, work):
        return acts[0]

    policy = ["random"] * 4
    policy[seat_to_fail] = (own, answer)
    return policy


@pytest.mark.parametrize("records", [False, True])
def test_a_user_policy_that_raises_is_a_game_error(tmp_path, records):
    from mjstats.games import GameError, play_games

    kwargs = {"wall": "botzone", "records": tmp_path / "r.txt"} if records else {}
    with pytest.raises(GameError, match=r"^game 0: the user policy of seat 2 \(own turn\) "
                       r"raised ValueError: my policy broke \(turn of seat 2"):  # fmt: skip
        play_games(3, seed=1, policy=_raising_policy(2), **kwargs)
