/* Dalil live search (/search/): the header's search box searches as the user types. */
(function () {
  "use strict";

  var root = document.getElementById("live-search");
  if (!root || !window.DalilSearch) return;
  var core = window.DalilSearch;
  var input = document.getElementById(root.dataset.input || "site-search");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var base = root.dataset.base || "";
  var more = document.getElementById("search-more");
  var limit = parseInt(root.dataset.limit, 10) || 20;
  var shown = limit;
  var searcher = null;
  var shownNodes = new Map();
  var failed = false;
  if (!input) return;

  function setStatus(text, kind) {
    status.textContent = text;
    status.className = "search-status" + (kind ? " " + kind : "");
  }

  function render() {
    var raw = input.value;
    if (failed) return;
    if (!searcher) { setStatus(dalilText("Loading the search index…")); return; }
    var result = searcher.search(raw, shown);
    var started = performance.now();
    // A result still shown keeps its node: no new layout of its card, no image reload.
    var nodes = new Map();
    var fragment = document.createDocumentFragment();
    result.items.forEach(function (entry) {
      var item = shownNodes.get(entry);
      if (!item) {
        item = document.createElement("li");
        item.className = "result";
        item.appendChild(core.card(entry, base));
      }
      nodes.set(entry, item);
      fragment.appendChild(item);
    });
    list.replaceChildren(fragment);
    shownNodes = nodes;
    if (more) more.hidden = result.total <= result.items.length;
    if (!result.query) {
      setStatus(dalilText("Type the name of a business, a category or a city to see results."));
    } else if (!result.total) {
      setStatus(dalilText("No results for “%(query)s”. Check the spelling or try another word.", { query: raw.trim() }), "empty");
    } else if (result.total > result.items.length) {
      setStatus(dalilText("Results: %(total)s. The first %(shown)s are shown.", { total: result.total, shown: result.items.length }));
    } else {
      setStatus(dalilText("Results: %(total)s.", { total: result.total }));
    }
    // For tests and the benchmark: what was shown, and how long matching and rendering took.
    root.dataset.query = result.query;
    root.dispatchEvent(new CustomEvent("dalil:results", {
      detail: { query: result.query, total: result.total, matchMs: result.ms,
                renderMs: performance.now() - started }
    }));
  }

  function syncUrl() {
    var query = input.value.trim();
    var url = location.pathname + (query ? "?q=" + encodeURIComponent(query) : "");
    history.replaceState(null, "", url);
  }

  input.setAttribute("aria-controls", list.id);
  input.value = new URLSearchParams(location.search).get("q") || "";
  if (!input.value) input.focus();

  input.addEventListener("input", function () { shown = limit; render(); syncUrl(); });
  if (more) {
    more.addEventListener("click", function () {
      var first = links().length;
      shown += limit;
      render();
      var all = links();
      if (all[first]) all[first].focus();  // keyboard users continue where the new ones start
    });
  }
  if (input.form) {
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      shown = limit;
      render();
      syncUrl();
    });
  }

  // Arrow keys move between the box and the results; Escape returns to the box.
  function links() { return Array.prototype.slice.call(list.querySelectorAll("a.result-link")); }
  input.addEventListener("keydown", function (event) {
    var all = links();
    if (event.key === "ArrowDown" && all.length) { event.preventDefault(); all[0].focus(); }
  });
  list.addEventListener("keydown", function (event) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at < all.length - 1) { event.preventDefault(); all[at + 1].focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); (at ? all[at - 1] : input).focus(); }
    else if (event.key === "Escape") { event.preventDefault(); input.focus(); }
  });

  setStatus(dalilText("Loading the search index…"));
  core.loadIndex(root.dataset.index).then(function (entries) {
    searcher = core.createSearcher(entries);
    root.dataset.ready = String(searcher.size);
    render();
  }).catch(function () {
    failed = true;
    root.dataset.ready = "error";
    setStatus(dalilText("The search index could not be loaded. Check your internet connection, then reload the page, or browse the directory by category and city."), "error");
  });
})();
