"""A replay viewer of whole games, for Jupyter and as one self-contained HTML file.

:func:`view` takes games the engine played (``play_games(..., keep_log=True)``),
Botzone records (a text record file, a JSON judge log, a folder of them) or a list
of these, replays each through the engine's own kernels (the states shown are the
engine's, not a re-implementation's) and keeps every step as compact JSON: the four
concealed hands, the melds with the seat each was claimed from, the discards in
order (claimed ones marked), the wall count, the flowers, and the acting seat's
shanten and useful tiles (:func:`mjstats.shanten`, :func:`mjstats.useful_tiles`);
at the end the winning hand, its fans (the engine's scoring, equal to the judge's
for a record) and the payments.

:class:`GameView` shows them: ``_repr_html_`` in a notebook, :meth:`GameView.html`
as a page, :meth:`GameView.save` to a file. The page holds the tile pictures of
:mod:`mjstats.tile_svg` once and one inline script: no network, no widget server.
It steps by buttons, slider and keys (left/right, Home/End, 1-4: the seat's next
decision), shows all hands open or one seat's view, and picks a game when there
are several. ``#step=N`` (or ``#step=end``) in its address opens the first game at
that step; given ``#autoplay``, the page steps through its own
controls to the end of every game and writes what it drew into ``#mjv-check``
(the browser test reads it back).

Examples
--------
>>> from pathlib import Path
>>> import mjstats
>>> from mjstats import view
>>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
>>> v = view(data / "sample.txt")
>>> len(v), v.games[0]["end"]["total"] > 0
(16, True)
>>> html = v._repr_html_()
>>> html.count("<script>"), "http" in html.replace("http://www.w3.org", "")
(1, False)
"""

from __future__ import annotations

import hashlib
import json
import os
from html import escape
from pathlib import Path

import numpy as np

from mjstats.efficiency import discard_table, shanten, useful_tiles
from mjstats.errors import GameError
from mjstats.games import kernels as G
from mjstats.games import state as ST
from mjstats.games.engine import engine_context
from mjstats.games.rules import wall_left
from mjstats.games.stats import wall_name
from mjstats.records import botzone_ruleset
from mjstats.records.judge_logs import UNNAMED
from mjstats.records.replay import checked_blocks
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.tile_svg import tile_defs

__all__ = ["GameView", "view"]

ACTIONS = (
    "",
    "discard",
    "self-drawn win",
    "concealed kong",
    "promoted kong",
    "win",
    "kong",
    "pung",
    "chow",
    "draw",
)
"""Name of each step code (the engine's action kind, and 9 a draw)."""
_DRAW = 9
_CLAIMS = (G.A_HU, G.A_KONG, G.A_PUNG, G.A_CHOW)


def _chars(counts) -> str:
    """Tile counts as one character per tile (tile ``t`` is ``chr(48 + t)``)."""
    return "".join(chr(48 + t) * int(counts[t]) for t in range(34))


class _Replayer:
    """Steps of one game replayed through the engine (one engine context per wall)."""

    def __init__(self, ruleset: Ruleset, wall: str):
        self.rs = ruleset
        self.gctx, _, self.tab, suits = engine_context(ruleset, wall, 0, "random")
        work, self.buf = G.new_work(ruleset.n_fans, suits)
        self.scratch = work[3]
        self.fan = np.zeros(ruleset.n_fans, np.uint8)

    def game(self, wall, wind: int, log, n_log: int, where: str) -> dict:
        g = self.gctx
        S = np.zeros(G.N_STATE, np.int64)
        g[G.G_ROUND] = wind
        args = (g, self.tab, self.scratch, self.fan, self.buf)
        err = G.new_game_of(
            S, wall, g[G.G_WALL], wind, g[G.G_SEATS], g[G.G_TILES], g[G.G_WALL_FLOWERS]
        )
        if err != 0:
            raise GameError(
                f"{where}: the wall does not fit the {self.rs.name} ruleset's game (played "
                "with another ruleset? pass view(..., ruleset=...))"
            )
        G.begin_turn(S, 0, False, *args)
        steps: list[list] = []  # the first: the dealer's first draw (after the deal)
        discards: list[list[int]] = []  # [seat, tile, step, step claimed (-1: never)]
        i, drawn = 0, 0
        while True:
            if S[G.S_DRAWS] != drawn:
                drawn = S[G.S_DRAWS]
                p = int(S[G.S_TURN])
                if i >= n_log or log[i, 1] != G.LOG_DRAW or log[i, 2] != S[G.S_DRAWN]:
                    raise GameError(f"{where}: log row {i} is not the engine's draw")
                i += 1
                steps.append(self._snap(S, p, _DRAW, int(S[G.S_DRAWN])))
            ph = S[G.S_PHASE]
            if ph in (G.PH_WIN, G.PH_DRAWN):
                break
            if ph == G.PH_OWN:
                if i >= n_log:
                    raise GameError(f"{where}: the log ends before the game")
                p, kind, tile = (int(x) for x in log[i, :3])
                i += 1
                G.apply_own(S, kind * 64 + tile, *args)
                if kind == G.A_DISCARD:
                    discards.append([p, tile, len(steps), -1])
                steps.append(self._snap(S, p, kind, tile))
                continue
            resp = np.zeros(4, np.int64)
            first = -1
            while i < n_log and log[i, 1] in _CLAIMS and (log[i, 3] == 1) == (first >= 0):
                q = int(log[i, 0])
                resp[q] = log[i, 1] * 64 + log[i, 2]
                first = q if first < 0 else first
                i += 1
            taken = G.resolve(S, resp, *args)
            if taken != first:
                raise GameError(f"{where}: the engine gives the claim to {taken}, not {first}")
            if taken >= 0:
                kind = int(resp[taken] // 64)
                if steps[-1][1] == G.A_DISCARD:  # a discard claimed (not a kong robbed)
                    discards[-1][3] = len(steps)
                steps.append(self._snap(S, taken, kind, int(resp[taken] % 64)))
        end = self._end(S)
        return {"seats": int(g[G.G_SEATS]), "steps": steps, "discards": discards, "end": end}

    def _snap(self, S, actor: int, code: int, tile: int) -> list:
        hands = "|".join(_chars(S[34 * p : 34 * p + 34]) for p in range(4))
        melds = "|".join(
            "".join(
                f"{S[o]}{chr(48 + S[o + 1])}{S[o + 2]}"
                for o in range(G.S_MELD + 12 * p, G.S_MELD + 12 * p + 3 * S[G.S_NMELD + p], 3)
            )
            for p in range(4)
        )
        left = int(sum(wall_left(S, p) for p in range(4)))
        if S[ST.S_WALL_KIND] != G.WALL_BOTZONE:
            left = int(wall_left(S, 0))
        flowers = [int(S[G.S_FLOWERS + p]) for p in range(4)]
        return [actor, code, tile, left, hands, melds, flowers]

    def _end(self, S) -> dict:
        scores = [int(x) for x in S[G.S_SCORE : G.S_SCORE + 4]]
        if S[G.S_PHASE] != G.PH_WIN:
            return {"result": "drawn", "scores": scores}
        fans = [
            [f.zh, f.en, f.points, int(self.fan[k])]
            for k, f in enumerate(self.rs.fans)
            if self.fan[k]
        ]
        return {
            "result": "win",
            "winner": int(S[G.S_WINNER]),
            "from": int(S[G.S_FROM]),
            "tile": int(S[G.S_WIN_TILE]),
            "kind": ("discard", "self-drawn", "robbing a kong")[int(S[G.S_WIN_KIND])],
            "total": int(S[G.S_TOTAL]),
            "fans": fans,
            "scores": scores,
        }


def _analyse(steps: list) -> None:
    """Append the acting seat's analysis to each step: its shanten, then for a 13-tile
    hand its useful tiles and -1, for a 14-tile hand not yet complete the useful tiles
    after its best discard (lowest shanten, then most useful copies) and that discard."""
    hands, melds = [], []
    for st in steps:
        p = max(st[0], 0)
        counts = np.zeros(34, np.int64)
        for ch in st[4].split("|")[p]:
            counts[ord(ch) - 48] += 1
        hands.append(counts)
        melds.append(len(st[5].split("|")[p]) // 3)
    hands, melds = np.array(hands), np.array(melds)
    sh = shanten(hands, melds)
    size = hands.sum(1) + 3 * melds
    useful = np.zeros((len(steps), 34), bool)
    best = np.full(len(steps), -1)
    waiting = size == 13
    if waiting.any():
        useful[waiting] = useful_tiles(hands[waiting], melds[waiting])
    drawn = (size == 14) & (sh >= 0)
    if drawn.any():
        t = discard_table(hands[drawn], melds[drawn])
        key = t.shanten.astype(np.int64) * 1000 - t.useful_copies  # held tiles only:
        key[hands[drawn] == 0] = 1 << 40  # a tile not held cannot be discarded
        pick = key.argmin(axis=1)
        best[drawn] = pick
        mask = t.useful_mask[np.arange(len(pick)), pick]
        useful[drawn] = (mask[:, None] >> np.arange(34)) & 1 > 0
    for k, st in enumerate(steps):
        st += [int(sh[k]), _chars(useful[k]), int(best[k])]


def _played(obj, ruleset) -> list[dict]:
    _, _, final, logs = obj
    rs = get_ruleset(ruleset)
    rep = _Replayer(rs, wall_name(final))
    out = []
    for i in range(len(final)):
        S = final[i]
        wall = S[G.S_WALL : G.S_WALL + S[G.S_WALL_N]]
        g = rep.game(wall, int(S[G.S_ROUND]), logs[i], int(S[G.S_NLOG]), f"game {i}")
        g.update(id=f"game {i}", source="play_games", wind=int(S[G.S_ROUND]))
        out.append(g)
    return out


def _records(path, ruleset, skip_bad: bool) -> list[dict]:
    """The steps of every game of a record file or folder that replays and ends as
    recorded (:mod:`mjstats.records.replay`); a bad one raises unless ``skip_bad``."""
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    rep = _Replayer(rs, "botzone")
    out = []
    for r in checked_blocks(path, rs, skip_bad):
        b = r.block
        for i in np.flatnonzero(r.good).tolist():
            where = f"{b.source[i]}, match {b.match[i]}"
            log = b.logs[b.starts[i] : b.starts[i] + b.n_log[i]]
            g = rep.game(b.walls[i], int(b.winds[i]), log, int(b.n_log[i]), where)
            g.update(id=b.match[i], source=os.path.basename(b.source[i]), wind=int(b.winds[i]))
            if b.players[i] and list(b.players[i]) != [UNNAMED] * 4:
                g["names"] = list(b.players[i])
            out.append(g)
    return out


def _collect(obj, ruleset, skip_bad: bool) -> list[dict]:
    if isinstance(obj, (str, os.PathLike)):
        return _records(Path(os.fspath(obj)), ruleset, skip_bad)
    if isinstance(obj, tuple) and len(obj) == 4:
        return _played(obj, "mcr" if ruleset is None else ruleset)
    if isinstance(obj, list):
        return [g for part in obj for g in _collect(part, ruleset, skip_bad)]
    raise TypeError(
        "view() takes a record path, the (games, fans, final, logs) of "
        f"play_games(..., keep_log=True), or a list of them, not {type(obj).__name__}"
    )


class GameView:
    """Games ready to show (see :func:`view`).

    Attributes
    ----------
    games : list of dict
        Per game: ``id``, ``source``, ``wind``, ``seats`` (in play: 4, or 2),
        ``steps`` (each
        ``[seat, code, tile, wall left, hands, melds, flowers, shanten, useful, best]``: the
        acting seat (-1 the deal), the step's code (:data:`ACTIONS`), its tile, the
        four concealed hands and melds as text (a tile ``t`` as ``chr(48 + t)``, a
        meld as kind, tile, seat claimed from; seats apart by ``|``), the flower masks,
        then the acting seat's shanten, useful tiles and, holding 14 tiles, the best
        discard those follow, else -1), ``discards`` (``[seat, tile,
        step, step claimed or -1]``), ``end`` (result, winner, fans, scores) and, for a
        JSON judge log, ``names`` (the four seats' players).
    """

    _shown = 0  # views drawn so far in this process (part of each view's element id)

    def __init__(self, games: list[dict]):
        self.games = games

    def __len__(self) -> int:
        return len(self.games)

    def _body(self) -> str:
        data = json.dumps(self.games, ensure_ascii=False, separators=(",", ":"))
        data = data.replace("</", "<\\/")
        # an id of its own: several views in one notebook each find their own element
        GameView._shown += 1
        uid = f"mjv-{hashlib.sha1(data.encode()).hexdigest()[:10]}-{GameView._shown}"
        return (
            f"<div class='mjv' id='{uid}'>{tile_defs()}<style>{_CSS}</style>"
            "<div class='mjv-root'></div><pre class='mjv-check' id='mjv-check' "
            "style='display:none'></pre>"
            f"<script>(function(){{var GAMES={data},HOST='{uid}';{_JS}}})();</script></div>"
        )

    def _repr_html_(self) -> str:
        return self._body()

    def html(self, title: str = "mjstats replay") -> str:
        """The viewer as a whole HTML page (one file, nothing fetched).

        Examples
        --------
        >>> from mjstats.games import play_games
        >>> page = view(play_games(1, seed=1, keep_log=True)).html()
        >>> page.startswith("<!DOCTYPE html>"), page.count("<script>")
        (True, 1)
        """
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"</head><body>{self._body()}</body></html>"
        )

    def save(self, path) -> Path:
        """Write :meth:`html` to ``path`` (UTF-8); returns the path.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from mjstats.games import play_games
        >>> out = view(play_games(1, seed=1, keep_log=True)).save(
        ...     pathlib.Path(tempfile.mkdtemp()) / "game.html")
        >>> page = out.read_text(encoding="utf-8")
        >>> page.startswith("<!DOCTYPE html>"), page.count("<symbol id='mjt-")  # 43 pictures
        (True, 43)
        """
        p = Path(os.fspath(path))
        p.write_text(self.html(p.stem), encoding="utf-8")
        return p


def view(games, ruleset: Ruleset | str | None = None, skip_bad: bool = False) -> GameView:
    """Replay games through the engine and show them step by step.

    Parameters
    ----------
    games : path, tuple or list
        A Botzone text record file, JSON judge log or folder of them (every game
        must replay through the engine and end as recorded,
        :mod:`mjstats.records.replay`), the four results of
        ``play_games(..., keep_log=True)``, or a list of any of these.
    ruleset : Ruleset or str, optional
        Default: the Botzone judge's for records, MCR for played games.
    skip_bad : bool
        Leave out records that cannot be read or do not replay as recorded (else
        the first raises).

    Returns
    -------
    GameView
        Shown by Jupyter; ``.save("out.html")`` writes one file.

    Raises
    ------
    RecordError
        A record that does not replay or ends otherwise than recorded.

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> from mjstats import view
    >>> v = view(play_games(2, seed=3, policy="efficiency", keep_log=True))
    >>> first = v.games[0]["steps"][0]       # East's first draw, after the deal
    >>> len(v), first[0], ACTIONS[first[1]]
    (2, 0, 'draw')
    """
    out = _collect(games, ruleset, skip_bad)
    for g in out:
        _analyse(g["steps"])
    return GameView(out)


_CSS = """
.mjv-root{font-family:Arial,Helvetica,sans-serif;font-size:13px;color:#222}
.mjv-root .bar{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:4px 0}
.mjv-root .seat{border:1px solid #ccc;border-radius:6px;padding:4px 6px;margin:4px 0}
.mjv-root .seat.act{border-color:#d9822b;box-shadow:0 0 0 2px #f3c58f}
.mjv-root .row{display:flex;align-items:flex-end;gap:8px;flex-wrap:wrap;min-height:34px}
.mjv-root .meld{display:inline-flex;flex-direction:column;align-items:center;
 border:1px solid #bbb;border-radius:4px;padding:1px}
.mjv-root .meld small{font-size:10px;color:#555}
.mjv-root .disc{display:flex;flex-wrap:wrap;gap:1px;margin-top:3px}
.mjv-root .claimed{opacity:.35;outline:2px solid #b3261e;border-radius:3px}
.mjv-root .new{outline:2px solid #d9822b;border-radius:3px}
.mjv-root .info{background:#f4f4f4;border-radius:4px;padding:4px 6px}
.mjv-root table{border-collapse:collapse}.mjv-root td{padding:1px 8px}
"""

_JS = r"""
var root=document.getElementById(HOST).querySelector('.mjv-root');
var check=root.parentNode.querySelector('.mjv-check');
var WINDS=['East','South','West','North'];
var ACT=['','discard','self-drawn win','concealed kong','promoted kong','win','kong',
'pung','chow','draw'];
var TN=[];(function(){var s='mps',e=['Character','Dot','Bamboo'];
for(var i=0;i<27;i++)TN.push((i%9+1)+s[Math.floor(i/9)]+' '+(i%9+1)+' '+e[Math.floor(i/9)]);
['East Wind','South Wind','West Wind','North Wind','White Dragon','Green Dragon',
'Red Dragon'].forEach(function(n,k){TN.push((k+1)+'z '+n);});})();
var FL=['spring','summer','autumn','winter','plum','orchid','bamboo','chrysanthemum'];
var gi=0,k=0,pov=-1,errors=[];
window.addEventListener('error',function(e){errors.push(String(e.message));
 if(check)check.setAttribute('data-errors',errors.join(' | '));});
function tile(t,h,cls,title){h=h||30;var w=h*0.75;
 var name=title||(t>=0?TN[t]:'hidden');var ref=t>=0?t:'back';
 return '<svg class="mjt'+(cls?' '+cls:'')+'" width="'+w+'" height="'+h+
 '" viewBox="0 0 30 40" role="img" aria-label="'+name+'"><title>'+name+
 '</title><use href="#mjt-'+ref+'"></use></svg>';}
function esc(s){return String(s).replace(/[&<>"']/g,function(c){
 return '&#'+c.charCodeAt(0)+';';});}
function ids(s){var a=[];for(var i=0;i<s.length;i++)a.push(s.charCodeAt(i)-48);return a;}
function melds(s){var out=[];for(var i=0;i+2<s.length;i+=3)out.push([+s[i],
 s.charCodeAt(i+1)-48,+s[i+2]]);return out;}
function meldTiles(m){var t=m[1];if(m[0]===1)return[t,t+1,t+2];
 if(m[0]===2)return[t,t,t];return[t,t,t,t];}
function el(tag,html,cls){var e=document.createElement(tag);if(cls)e.className=cls;
 e.innerHTML=html;return e;}
function btn(label,f,title){var b=document.createElement('button');b.textContent=label;
 if(title)b.title=title;b.onclick=f;return b;}
var bar=el('div','','bar'),picker=document.createElement('select'),
 slider=document.createElement('input'),pos=el('span',''),view=document.createElement('select');
GAMES.forEach(function(g,i){var o=document.createElement('option');o.value=i;
 o.textContent=(i+1)+': '+g.source+' '+g.id;picker.appendChild(o);});
picker.onchange=function(){gi=+picker.value;k=0;draw();};
['all hands open','East\'s view','South\'s view','West\'s view','North\'s view']
 .forEach(function(n,i){var o=document.createElement('option');o.value=i-1;o.textContent=n;
 view.appendChild(o);});
view.onchange=function(){pov=+view.value;draw();};
slider.type='range';slider.min=0;slider.oninput=function(){k=+slider.value;draw();};
function go(n){var s=GAMES[gi].steps.length;k=Math.max(0,Math.min(s-1,n));draw();}
function nextOf(seat){var st=GAMES[gi].steps;for(var j=k+1;j<st.length;j++)
 if(st[j][0]===seat&&st[j][1]!==9)return go(j);go(st.length-1);}
var bFirst=btn('|\u25C0',function(){go(0);},'first (Home)'),
 bBack=btn('\u25C0',function(){go(k-1);},'back (left arrow)'),
 bNext=btn('\u25B6',function(){go(k+1);},'forward (right arrow)'),
 bLast=btn('\u25B6|',function(){go(1e9);},'end (End)');
if(GAMES.length>1)bar.appendChild(picker);
[bFirst,bBack,bNext,bLast].forEach(function(b){bar.appendChild(b);});
bar.appendChild(slider);bar.appendChild(pos);
[0,1,2,3].forEach(function(s){bar.appendChild(btn(WINDS[s][0]+'\u2192',
 function(){nextOf(s);},'next decision of '+WINDS[s]+' (key '+(s+1)+')'));});
bar.appendChild(view);
var board=el('div','');root.appendChild(bar);root.appendChild(board);
root.tabIndex=0;root.addEventListener('keydown',function(e){
 if(e.key==='ArrowRight')go(k+1);else if(e.key==='ArrowLeft')go(k-1);
 else if(e.key==='Home')go(0);else if(e.key==='End')go(1e9);
 else if('1234'.indexOf(e.key)>=0)nextOf(+e.key-1);else return;e.preventDefault();});
function fanTable(end){var r='<table>';end.fans.forEach(function(f){r+='<tr><td>'+f[0]+
 '</td><td>'+f[1]+'</td><td style="text-align:right">'+f[2]+(f[3]>1?' x'+f[3]:'')+
 '</td></tr>';});return r+'<tr><td colspan="2"><b>total</b></td><td style="text-align:right"><b>'+
 end.total+'</b></td></tr></table>';}
function draw(){var g=GAMES[gi],st=g.steps[k],last=k===g.steps.length-1;
 slider.max=g.steps.length-1;slider.value=k;
 pos.textContent='step '+k+' / '+(g.steps.length-1);
 var hands=st[4].split('|'),ms=st[5].split('|'),html='';
 var act=st[0]>=0?WINDS[st[0]]+' '+ACT[st[1]]+(st[2]>=0?' '+TN[st[2]].split(' ')[0]:''):'the deal';
 html+='<div class="info">Round '+WINDS[g.wind]+' \u00b7 '+act+' \u00b7 wall '+st[3]+
 ' tiles left';
 var who=Math.max(st[0],0);
 html+=' \u00b7 '+WINDS[who]+': '+(st[7]<0?'complete':st[7]===0?'ready':st[7]+'-shanten');
 if(st[9]>=0)html+=', best discard '+tile(st[9],22)+' then';
 if(st[8])html+=' useful '+ids(st[8]).map(function(t){return tile(t,22);}).join('');
 html+='</div>';
 for(var p=0;p<(g.seats||4);p++){var open=pov<0||pov===p||last;
  var h=ids(hands[p]),row='';
  melds(ms[p]).forEach(function(m){var ts=meldTiles(m);var conceal=m[0]===4&&!open;
   row+='<span class="meld"><span>'+ts.map(function(t,j){return tile(conceal&&(j===0||j===3)?-1:t);
   }).join('')+'</span><small>'+(m[2]===p?'concealed':'from '+WINDS[m[2]])+'</small></span>';});
  row+='<span class="hand" data-seat="'+p+'">'+h.map(function(t){
   var fresh=open&&st[0]===p&&st[1]===9&&t===st[2];
   return tile(open?t:-1,30,fresh?'new':'');}).join('')+'</span>';
  var fl='';for(var b=0;b<8;b++)if(st[6][p]>>b&1)
   fl+=tile(-1,22,'flower','flower '+FL[b]).replace('#mjt-back','#mjt-f'+b);
  var disc='';g.discards.forEach(function(d){if(d[0]===p&&d[2]<=k){
   var taken=d[3]>=0&&d[3]<=k;
   disc+=tile(d[1],26,taken?'claimed':'',TN[d[1]]+(taken?' (claimed)':''));}});
  html+='<div class="seat'+(st[0]===p?' act':'')+'"><b>'+WINDS[p]+'</b>'+
  (g.names?' '+esc(g.names[p]):'')+' <span style="color:#777">('+h.length+' in hand)</span> '+fl+
  '<div class="row">'+row+'</div><div class="disc" data-seat="'+p+'">'+disc+'</div></div>';}
 if(last){var e=g.end;html+='<div class="info end">';
  if(e.result==='win'){html+='<b>'+WINDS[e.winner]+' wins</b> on '+tile(e.tile,30)+' ('+e.kind+
   (e.from>=0&&e.from!==e.winner?', from '+WINDS[e.from]:'')+')'+fanTable(e);}
  else html+='<b>Drawn game</b> (the wall is empty)';
  html+='<div>Payments: '+e.scores.slice(0,g.seats||4).map(function(s,i){
   return WINDS[i]+' '+(s>0?'+':'')+s;})
  .join(', ')+'</div></div>';}
 board.innerHTML=html;}
function record(){var g=GAMES[gi],st=g.steps[k],seats=board.querySelectorAll('.seat'),row=[];
 for(var p=0;p<seats.length;p++){
  row.push([seats[p].querySelector('.hand').querySelectorAll('svg.mjt').length,
  seats[p].querySelector('.disc').querySelectorAll('svg.mjt').length,
  seats[p].querySelectorAll('.meld').length]);}
 return row;}
function autoplay(){var out=[];for(var i=0;i<GAMES.length;i++){picker.value=i;
  picker.onchange();var steps=[];steps.push(record());
  while(k<GAMES[gi].steps.length-1){bNext.click();steps.push(record());}
  var fans=[].map.call(board.querySelectorAll('.end tr'),function(tr){
   return [].map.call(tr.querySelectorAll('td'),function(td){return td.textContent;});});
  var disc=[0,1,2,3].map(function(p){return [].map.call(board.querySelectorAll(
   '.disc[data-seat="'+p+'"] svg title'),function(t){return t.textContent.split(' ')[0];});});
  out.push({id:GAMES[gi].id,steps:steps,fans:fans,discards:disc,
   end:board.querySelector('.end')?board.querySelector('.end').textContent:''});}
 picker.value=0;picker.onchange();
 var keys=['End','Home','ArrowRight','ArrowRight','ArrowLeft','2','3','4','1'].map(function(key){
  root.dispatchEvent(new KeyboardEvent('keydown',{key:key,bubbles:true}));
  return [k,GAMES[gi].steps[k][0],GAMES[gi].steps[k][1]];});
 slider.value=5;slider.oninput();keys.push([k,-1,-1]);
 view.value=1;view.onchange();
 var hidden=[].map.call(board.querySelectorAll('.hand'),function(h){
  return h.querySelectorAll('use[href="#mjt-back"]').length;});
 check.textContent=JSON.stringify({games:out,errors:errors,keys:keys,hidden:hidden});}
draw();
if(check)check.setAttribute('data-ready-ms',String(Math.round(performance.now())));
var hm=/^#step=(\d+|end)$/.exec(location.hash);if(hm)go(hm[1]==='end'?1e9:+hm[1]);
if(location.hash==='#autoplay'){try{autoplay();}catch(e){errors.push(String(e));
 check.textContent=JSON.stringify({games:[],errors:errors});}}
"""
