"""The analysis table's HTML view in a real browser: ``mjstats analyze ... --out t.html``
opened by Debian's headless ``chromium``. A probe script added to a copy of the page
measures what the browser laid out: one body row per option of :func:`mjstats.analyze`,
every tile picture drawn at its size and naming a symbol the page defines, the
legal-useful tiles of the best option shown as pictures in its row. A screenshot goes
to the test's tmp dir.

In CI (``CI`` set) a missing chromium fails the test; elsewhere it skips.
"""

from __future__ import annotations

import json
import re

from browser import chromium, require_chromium

from mjstats import analyze
from mjstats.cli import main

require_chromium()

HAND = "123m456p789s11334z"

PROBE = """<script>
window.addEventListener('load', () => {
  const rows = [...document.querySelectorAll('.mjstats-analysis tbody tr')];
  const ids = new Set([...document.querySelectorAll('symbol')].map(s => s.id));
  const out = rows.map(tr => [...tr.children].map(td => ({
    text: td.textContent.trim(),
    tiles: [...td.querySelectorAll('svg.mjt')].map(svg => {
      const r = svg.getBoundingClientRect();
      const ref = svg.querySelector('use').getAttribute('href').slice(1);
      return {title: svg.querySelector('title').textContent, w: r.width, h: r.height,
              defined: ids.has(ref)};
    }),
  })));
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def test_analysis_page_draws_every_option_with_tile_pictures(tmp_path):
    page = tmp_path / "analysis.html"
    assert main(["analyze", HAND, "--no-mc", "--out", str(page)]) == 0
    probe = tmp_path / "probe.html"
    probe.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", probe.as_uri())
    m = re.search(r"<pre id=\"probe\">(.*?)</pre>", dom, re.S)
    assert m, "the probe did not run"
    rows = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))

    table = analyze(HAND)
    assert len(rows) == len(table)
    for row, option in zip(rows, table["option"], strict=True):
        assert option in row[0]["text"]
        # the option's tile is drawn beside its text
        assert row[0]["tiles"], option
        for cell in row:
            for tile in cell["tiles"]:
                assert tile["defined"], tile
                assert tile["w"] > 10 and tile["h"] > 15, tile
    # the best option's legal-useful tiles, as pictures, in the column of that name
    header = re.findall(r"<th[^>]*>(.*?)</th>", dom)
    legal = rows[0][header.index("legal useful")]
    want = table.loc[0, "legal_useful"].split()
    assert [t["title"].split()[0] for t in legal["tiles"]] == want

    shot = tmp_path / "analysis.png"
    chromium("--window-size=1400,900", f"--screenshot={shot}", page.as_uri())
    assert shot.stat().st_size > 10_000
    print(f"analysis screenshot: {shot}")
