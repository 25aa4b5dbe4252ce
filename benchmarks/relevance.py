"""Relevance of Dalil's search and of Pagefind, side by side, on the sample site.

Builds content/ (as README's first command does), indexes the built site with Pagefind
(npm ``pagefind``, in tests/node_modules), then asks both the relevance suite's queries
(tests/search/relevance.py) in headless Chromium and prints recall@10 and MRR per query
class. Dalil's figures come from the same matching code the search page's worker runs.
Run: ``python3 -m benchmarks.relevance``.
"""

import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGEFIND = REPO / "tests" / "node_modules" / ".bin" / "pagefind"

# What the search page loads: the head of the index in parts, then each query's parts.
DALIL = """async ([queries]) => {
  const search = DalilSearch.openIndex(await DalilSearch.loadIndex('/search/index/head.json'),
                                       undefined, name => '/search/index/' + name + '.json');
  const out = [];
  for (const q of queries) {
    let result = search.answer(q, 10);
    while (result.missing) {
      await search.load(result);
      result = search.answer(q, 10);
    }
    out.push(result.items.map(e => e.url));
  }
  return out;
}"""
PAGEFIND_QUERIES = """async ([queries]) => {
  const pagefind = await import('/pagefind/pagefind.js');
  await pagefind.init();
  const out = [];
  for (const q of queries) {
    const found = await pagefind.search(q);
    out.push((await Promise.all(found.results.slice(0, 10).map(r => r.data()))).map(d => d.url));
  }
  return out;
}"""


def slugs(urls):
    """The listings among the top 10 URLs."""
    return [url.rstrip("/").rsplit("/", 1)[-1] for url in urls[:10] if "/listing/" in url]


def main():
    sys.path.insert(0, str(REPO))
    from tests.browser import chromium, serve
    from tests.search.relevance import QUERIES, figures

    with tempfile.TemporaryDirectory(prefix="dalil-relevance-") as workdir:
        output = Path(workdir) / "output"
        env = {**os.environ, "PYTHONPATH": str(REPO / "plugins"), "SOURCE_DATE_EPOCH": "1795262400"}
        subprocess.run([sys.executable, "-m", "pelican", "content", "-o", str(output), "-s",
                        "pelicanconf.py"], cwd=REPO, env=env, check=True, capture_output=True)
        subprocess.run([str(PAGEFIND), "--site", str(output)], check=True, capture_output=True)
        queries = [query for _, query, _ in QUERIES]
        with serve(output) as base, chromium() as browser:
            page = browser.new_page()
            page.goto(base + "/search/")
            found = {"dalil": page.evaluate(DALIL, [queries]),
                     "pagefind": page.evaluate(PAGEFIND_QUERIES, [queries])}
    table = {engine: figures({query: (kind, expected, slugs(urls))
                              for (kind, query, expected), urls in zip(QUERIES, lists)})
             for engine, lists in found.items()}
    print(f"{len(QUERIES)} queries on the sample site; recall@10 / MRR of the expected listings")
    print(f"{'class':<22} {'queries':>7} {'Dalil':>13} {'Pagefind':>13}")
    counts = Counter(kind for kind, _, _ in QUERIES)
    counts["all"] = len(QUERIES)
    for kind in table["dalil"]:
        cells = [f"{table[engine][kind][0]:.3f} / {table[engine][kind][1]:.3f}"
                 for engine in ("dalil", "pagefind")]
        print(f"{kind:<22} {counts[kind]:>7} {cells[0]:>13} {cells[1]:>13}")
    for engine, lists in found.items():
        print(f"{engine}: {sum(not slugs(urls) for urls in lists)} of {len(QUERIES)} queries "
              "find no listing")
    return table


if __name__ == "__main__":
    main()
