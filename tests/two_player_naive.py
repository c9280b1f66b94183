"""A slow, obviously-correct two-player scorer in plain Python (test oracle).

Written from the rule text and ``docs/two-player-rules.md`` independently of
``mjstats.rulesets.two_player.kernel``: recursive decomposition, one readable function
of rules per reading, and the 不记番 lists of ``mjstats.rulesets.two_player``.
:func:`readings` returns every reading's fan dict (after exclusions) with its
total, so tests can check that the kernel chose a best one.
"""

from __future__ import annotations

from collections import Counter

from mjstats.rulesets.two_player import RULESET

KEYS = [f.key for f in RULESET.fans]
POINTS = {f.key: f.points for f in RULESET.fans}
EXCLUDES = {f.key: set(f.excludes) - set(f.excludes_own_set) for f in RULESET.fans}
#: 不记番 entries that remove only the fan's own set's occurrence (门风刻: the
#: seat-wind pung's 幺九刻)
OWN_SET = {f.key: f.excludes_own_set for f in RULESET.fans if f.excludes_own_set}

NUMBERED = range(9)
HONORS = range(27, 34)
WINDS = range(27, 31)
DRAGONS = range(31, 34)


def _decompose(counts):
    """Every multiset of sets + pair of the counts (list of (sets, pair))."""
    out = set()

    def rec(c, sets, pair):
        i = next((t for t in range(34) if c[t]), None)
        if i is None:
            if pair is not None:
                out.add((tuple(sorted(sets)), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(c, [*sets, ("pung", i)], pair)
            c[i] += 3
        if pair is None and c[i] >= 2:
            c[i] -= 2
            rec(c, sets, i)
            c[i] += 2
        if i < 7 and c[i + 1] and c[i + 2]:
            for t in (i, i + 1, i + 2):
                c[t] -= 1
            rec(c, [*sets, ("chow", i)], pair)
            for t in (i, i + 1, i + 2):
                c[t] += 1

    rec(list(counts), [], None)
    return sorted(out)


def _complete(counts, n_melds):
    if sum(counts) != 14 - 3 * n_melds:
        return False
    if _decompose(counts):
        return True
    return n_melds == 0 and all(c % 2 == 0 for c in counts)


def _exclude(raw):
    fans = {}
    gone = set()
    for k in KEYS:
        if raw.get(k, 0) and k not in gone:
            fans[k] = raw[k]
            gone |= EXCLUDES[k]
    # a later fan may exclude an earlier one (equal values)
    fans = {k: v for k, v in fans.items() if k not in gone}
    # own-set entries of the fans still counted: one occurrence each
    for k, own in OWN_SET.items():
        for b in own:
            if k in fans and b in fans:
                fans[b] -= min(fans[k], fans[b])
    return {k: v for k, v in fans.items() if v}


def _hand_fans(h):
    """Fans of the whole hand (before exclusions)."""
    c, melds = h["concealed"], h["melds"]
    all34 = list(c)
    for kind, t in melds:
        if kind == 1:
            for u in (t, t + 1, t + 2):
                all34[u] += 1
        else:
            all34[t] += 3 if kind == 2 else 4
    kinds = {t for t in range(34) if all34[t]}
    num = kinds & set(NUMBERED)
    hon = kinds & set(HONORS)
    f = Counter()
    if not num:
        f["all_honors"] = 1
    elif not hon:
        f["full_flush"] = 1
    else:
        f["half_flush"] = 1
    if not hon and not ({0, 8} & num):
        f["all_simples"] = 1
    if kinds <= {0, 8, *HONORS} and {0, 8} <= kinds:
        f["all_terminals_and_honors"] = 1
    if num and all(t >= 5 for t in num):
        f["upper_tiles"] = 1
    if num and all(t <= 3 for t in num):
        f["lower_tiles"] = 1
    kong_tiles = {t for k, t in melds if k >= 3}
    hog = sum(1 for t in range(34) if all34[t] == 4 and t not in kong_tiles)
    if hog:
        f["tile_hog"] = hog
    if not melds and not hon:
        extra = [c[r] - (3 if r in (0, 8) else 1) for r in range(9)]
        if min(extra) >= 0 and sum(extra) == 1:
            f["nine_gates"] = 1
    # flowers
    m = h["flowers"]
    if bin(m).count("1"):
        f["flower_tiles"] = bin(m).count("1")
    if m == 255:
        f["eight_immortals"] = 1
    if m & 15 == 15:
        f["four_seasons"] = 1
    if m & 240 == 240:
        f["four_gentlemen"] = 1
    if (h["seat"] == 0 and m & 1 and m & 16) or (h["seat"] == 2 and m & 4 and m & 64):
        f["seat_flowers"] = 1
    # concealment and win
    exposed = [k for k, _ in melds if k in (1, 2, 3)]
    sd, sit = h["self_drawn"], h["situation"]
    if not exposed:
        f["concealed_hand"] = 1
        if sd:
            f["fully_concealed_hand"] = 1
        if sit & 8 or sit & 16:
            f["declared_ready"] = 1
    if len(exposed) == 4 and not sd:
        f["melded_hand"] = 1
    if sd:
        f["self_drawn"] = 1
    if not melds:
        if sit & 16:
            f["heavenly_ready"] = 1
        if sit & 1 and h["seat"] == 0 and sd:
            f["heavenly_hand"] = 1
        if sit & 2 and h["seat"] != 0 and sd:
            f["earthly_hand"] = 1
        if sit & 4 and h["seat"] != 0 and not sd:
            f["human_hand"] = 1
    if h["last_of_wall"]:
        f["last_tile_draw" if sd else "last_tile_claim"] = 1
    if h["kong_win"] and sd and kong_tiles:
        f["out_with_replacement_tile"] = 1
    mk = sum(1 for k, _ in melds if k == 3)
    ck = sum(1 for k, _ in melds if k == 4)
    if mk + ck == 4:
        f["four_kongs"] = 1
    elif mk + ck == 3:
        f["three_kongs"] = 1
    else:
        if mk == 2:
            f["two_melded_kongs"] = 1
        if mk == 1:
            f["melded_kong"] = 1
        if ck == 2:
            f["two_concealed_kongs"] = 1
        if ck == 1:
            f["concealed_kong"] = 1
    return f


def _waits(h):
    """Tiles that would complete the standing hand (fewer than 4 held)."""
    c = list(h["concealed"])
    c[h["win"]] -= 1
    held = list(h["concealed"])
    for kind, t in h["melds"]:
        if kind == 1:
            for u in (t, t + 1, t + 2):
                held[u] += 1
        else:
            held[t] += 3 if kind == 2 else 4
    out = []
    for t in [*NUMBERED, *HONORS]:
        if t != h["win"] and held[t] >= 4:
            continue
        c[t] += 1
        if _complete(c, len(h["melds"])):
            out.append(t)
        c[t] -= 1
    return out


def _chow_combo(chows, pair):
    """Chow-combination fans (rule of docs/two-player-rules.md), by brute force."""
    from itertools import combinations

    def pair_fan(a, b):
        return {0: "pure_double_chow", 3: "short_straight", 6: "two_terminal_chows"}.get(abs(a - b))

    def triple(a, b, c):
        a, b, c = sorted((a, b, c))
        if a == b == c:
            return "pure_triple_chow"
        if b - a == c - b and b - a in (1, 2):
            return "pure_shifted_chows"
        if (a, b, c) == (0, 3, 6):
            return "pure_straight"
        return None

    def best_pairs(cs, big, must=None):
        """Most disjoint allowed pair fans (optionally each using `must`); on a tie
        the smallest sorted fan ids."""
        best = Counter()
        best_key = (0, ())
        idx = range(len(cs))
        for n in (2, 1):
            for combo in combinations(list(combinations(idx, 2)), n):
                used = [i for p in combo for i in p]
                if len(set(used)) != len(used):
                    continue
                if must is not None and any(must not in p for p in combo):
                    continue
                got = Counter()
                for i, j in combo:
                    g = pair_fan(cs[i], cs[j])
                    if g is None or (big and g in EXCLUDES[big]):
                        break
                    got[g] += 1
                else:
                    ids = sorted(KEYS.index(k) for k in got.elements())
                    key = (len(ids), tuple(-i for i in ids))
                    if key > best_key:
                        best, best_key = got, key
        return best

    cs = sorted(chows)
    f = Counter()
    if len(cs) == 4:
        big = None
        if cs == [0, 0, 6, 6] and pair == 4:
            big = "pure_terminal_chows"
        elif cs[0] == cs[3]:
            big = "quadruple_chow"
        elif len({cs[1] - cs[0], cs[2] - cs[1], cs[3] - cs[2]}) == 1 and cs[1] - cs[0] in (1, 2):
            big = "four_pure_shifted_chows"
        if big:
            f[big] = 1
            f.update(best_pairs(cs, big))
            return f
        options = []
        for skip in range(4):
            rest = [cs[i] for i in range(4) if i != skip]
            t = triple(*rest)
            if t:
                extra = best_pairs([*rest, cs[skip]], t, must=3)
                options.append((POINTS[t], sum(extra.values()), t, extra))
        if options:
            options.sort(key=lambda o: (o[0], o[1]), reverse=True)
            f[options[0][2]] = 1
            f.update(options[0][3])
            return f
        f.update(best_pairs(cs, None))
    elif len(cs) == 3:
        t = triple(*cs)
        if t:
            f[t] = 1
        else:
            f.update(best_pairs(cs, None))
    elif len(cs) == 2:
        f.update(best_pairs(cs, None))
    return f


def readings(h, exclude=True):
    """[(total, fans dict)] of every allowed reading of the hand ``h`` (a dict:
    concealed (34 ints), melds [(kind, tile)], win, self_drawn, kong_win,
    last_of_wall, seat, round, flowers, situation). ``exclude=False``: the fans
    before the 不记番 step."""
    _exclude_or_not = _exclude if exclude else (lambda f: {k: v for k, v in f.items() if v})
    c, melds, win = list(h["concealed"]), h["melds"], h["win"]
    if sum(c) != 14 - 3 * len(melds) or c[win] == 0:
        return []
    base = _hand_fans(h)
    held = list(c)  # every tile of the hand, melds included
    for kind, t in melds:
        for u in (t, t + 1, t + 2) if kind == 1 else (t,) * (3 if kind == 2 else 4):
            held[u] += 1
    waits = _waits(h)
    unique = waits == [win]
    out = []
    if not melds and all(x % 2 == 0 for x in c):
        f = Counter(base)
        f["seven_pairs"] = 1
        if c == [0, 2, 2, 2, 2, 2, 2, 2] + [0] * 26:
            f["big_wheel"] = 1
        if c[0] == 2 or c[8] == 2:
            f["terminal_pair"] = 1
        if 2 in (c[1], c[4], c[7]):
            f["pair_258"] = 1
        f["single_wait"] = 1
        fans = _exclude_or_not(f)
        out.append((sum(POINTS[k] * v for k, v in fans.items()), fans))
    for sets, pair in _decompose(c):
        allsets = [(kind, t, False) for kind, t in sets]
        for kind, t in melds:
            allsets.append(("chow" if kind == 1 else "pung", t, kind != 4))
            if kind >= 3:
                allsets[-1] = ("kong", t, kind == 3)
        chows = [t for k, t, _ in allsets if k == "chow"]
        # "如果没有开门": a hand that claimed nothing settles three identical
        # chows as 一色三节高 (the pung reading); an opened hand keeps both
        opened = any(kind in (1, 2, 3) for kind, _ in melds)
        if not opened and any(n == 3 for n in Counter(chows).values()):
            continue
        pungs = [(t, m) for k, t, m in allsets if k != "chow"]
        f = Counter(base)
        f.update(_chow_combo(chows, pair))
        if len(chows) == 4 and pair < 27:
            f["all_chows"] = 1
        if len(pungs) == 4:
            f["all_pungs"] = 1
        w = [t for t, _ in pungs if t in WINDS]
        d = [t for t, _ in pungs if t in DRAGONS]
        if len(w) == 4:
            f["big_four_winds"] = 1
        if len(w) == 3 and pair in WINDS:
            f["little_four_winds"] = 1
        if len(w) >= 3:
            f["three_wind_pungs"] = 1
        if len(d) == 3:
            f["big_three_dragons"] = 1
        if len(d) == 2 and pair in DRAGONS:
            f["little_three_dragons"] = 1
        if len(d) >= 2:
            f["two_dragon_pungs"] = 1
        if d:
            f["dragon_pung"] = len(d)
        if 27 + h["round"] in w:
            f["prevalent_wind"] = 1
        if 27 + h["seat"] in w:
            f["seat_wind"] = 1
        n19 = sum(1 for t, _ in pungs if t in (0, 8) or t >= 27)
        if n19:
            f["pung_of_terminals_or_honors"] = n19
        ranks = sorted(t for t, _ in pungs if t < 9)
        for lo in range(9):
            if all(lo + i in ranks for i in range(3)):
                f["pure_shifted_pungs"] = 1
            if all(lo + i in ranks for i in range(4)):
                f["four_pure_shifted_pungs"] = 1
        in_chow = any(k == "chow" and not m and t <= win <= t + 2 for k, t, m in allsets)
        cp = 0
        for k, t, m in allsets:
            if k != "chow" and not m:
                if k == "pung" and t == win and not h["self_drawn"] and not in_chow:
                    continue
                cp += 1
        if cp >= 2:
            f["two_concealed_pungs"] = 1
        if cp >= 3:
            f["three_concealed_pungs"] = 1
        if cp == 4:
            f["four_concealed_pungs"] = 1
        orph = {0, 8, *HONORS}
        if pair in orph and all(
            (t in (0, 6)) if k == "chow" else (t in orph) for k, t, _ in allsets
        ):
            f["outside_hand"] = 1
        if pair in (0, 8):
            f["terminal_pair"] = 1
        if pair in (1, 4, 7) and held[pair] == 2:  # "3张以上不算二五八将"
            f["pair_258"] = 1
        edge = any(
            k == "chow" and not m and ((t == 0 and win == 2) or (t == 6 and win == 6))
            for k, t, m in allsets
        )
        closed = any(k == "chow" and not m and win == t + 1 for k, t, m in allsets)
        if unique and edge:
            f["edge_wait"] = 1
        elif unique and closed:
            f["closed_wait"] = 1
        elif pair == win:
            f["single_wait"] = 1
        fans = _exclude_or_not(f)
        out.append((sum(POINTS[k] * v for k, v in fans.items()), fans))
    return out


def hand_dict(hand):
    """The oracle's input from a :class:`mjstats.Hand`."""
    return {
        "concealed": [int(x) for x in hand.concealed],
        "melds": [(int(m.kind), int(m.tile)) for m in hand.melds],
        "win": int(hand.win_tile),
        "self_drawn": hand.self_drawn,
        "kong_win": hand.kong_win,
        "last_of_wall": hand.last_of_wall,
        "seat": hand.seat_wind,
        "round": hand.round_wind,
        "flowers": hand.flowers,
        "situation": hand.situation,
    }
