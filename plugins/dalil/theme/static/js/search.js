/* Dalil live search (/search/): the header's search box searches as the user types.
   The head of the index in parts is fetched, parsed and prepared in a worker
   (search-worker.js), so typing never waits for it; the worker hands it over, the page
   fetches the parts a query needs (once each). Each keystroke is answered at once,
   without a round trip to another thread, from the parts loaded: when the query needs
   more parts that may hold matches, those results are shown (if their slugs and paths
   are here: a card is never shown without its link and image), the status says the
   index is loading, and the results are answered again when the parts are here. The
   query and the filters live in the page's address (?q=…&category={slug}&city={slug}). */
(function () {
  "use strict";

  var root = document.getElementById("live-search");
  if (!root || !window.DalilSearch || !window.Worker) return;
  var core = window.DalilSearch;
  var input = document.getElementById(root.dataset.input || "site-search");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var base = root.dataset.base || "";
  var more = document.getElementById("search-more");
  var limit = parseInt(root.dataset.limit, 10) || 20;
  var facets = Array.prototype.slice.call(document.querySelectorAll("#search-facets select[data-facet]"));
  var shown = limit;
  var search = null;
  var failed = false;
  var shownNodes = new Map();
  if (!input) return;

  facets.forEach(function (select) {
    Array.prototype.forEach.call(select.options, function (option) {
      option.dataset.name = option.textContent;
    });
  });

  function setStatus(text, kind) {
    status.textContent = text;
    status.className = "search-status" + (kind ? " " + kind : "");
  }

  function filters() {
    var chosen = {};
    facets.forEach(function (select) { if (select.value) chosen[select.dataset.facet] = select.value; });
    return chosen;
  }

  // Named by the index's URL: the worker fetches it before anything else.
  var worker = new Worker(root.dataset.worker, { name: new URL(root.dataset.index, location.href).href });

  /* Shows the current state's results at once, from the parts loaded; while the
     parts the query needs are loading, says so (the state is answered again when they
     are here). */
  function ask() {
    if (!search) {
      if (!failed) setStatus(dalilText("Loading the search index…"));
      return;
    }
    var result = search.answer(input.value, shown, filters());
    if (result.items.every(function (entry) { return entry.url; })) render(result);
    else setStatus(dalilText("Loading the search index…"));
    if (!result.missing) return;
    search.load(result).then(ask, function () {
      setStatus(dalilText("The search index could not be loaded. Check your internet connection and reload the page, or browse the directory by category and city."), "error");
    });
  }

  /* A part of the index in parts: {name}.json beside its head. */
  function partUrl(name) {
    return new URL(name + ".json", new URL(root.dataset.index, location.href)).href;
  }

  /* Each option shows how many listings of the current query it would keep. */
  function showCounts(counts, searched) {
    facets.forEach(function (select) {
      var byValue = counts[select.dataset.facet] || {};
      Array.prototype.forEach.call(select.options, function (option) {
        var label = option.value && searched
          ? option.dataset.name + " (" + (byValue[option.value] || 0) + ")"
          : option.dataset.name;
        if (option.textContent !== label) option.textContent = label;  // no layout when unchanged
      });
    });
  }

  /* The chosen option's name of a filter, set apart (FSI … PDI) so that a Latin name
     keeps its order inside the sentence; "" when the filter is not chosen. */
  function chosenName(facet) {
    var select = facets.filter(function (item) { return item.dataset.facet === facet; })[0];
    var option = select && select.value ? select.options[select.selectedIndex] : null;
    return option ? "\u2068" + option.dataset.name + "\u2069" : "";
  }

  /* Says what was asked that found nothing: spelling advice only for typed words. */
  function emptyMessage(query) {
    var category = chosenName("category");
    var city = chosenName("city");
    if (query && (category || city)) {
      return dalilText("No results for “%(query)s” with the chosen filters. Check the spelling or remove a filter.", { query: query });
    }
    if (query) {
      return dalilText("No results for “%(query)s”. Check the spelling or try another word.", { query: query });
    }
    if (category && city) {
      return dalilText("No listings in the category “%(category)s” in the city “%(city)s”.", { category: category, city: city });
    }
    if (category) return dalilText("No listings in the category “%(category)s”.", { category: category });
    return dalilText("No listings in the city “%(city)s”.", { city: city });
  }

  function render(result) {
    var started = performance.now();
    // A result still shown keeps its node: no new layout of its card, no image reload.
    var nodes = new Map();
    var fragment = document.createDocumentFragment();
    result.items.forEach(function (entry) {
      var item = shownNodes.get(entry.url);
      if (!item) {
        item = document.createElement("li");
        item.className = "result";
        item.appendChild(core.card(entry, base));
      }
      nodes.set(entry.url, item);
      fragment.appendChild(item);
    });
    list.replaceChildren(fragment);
    shownNodes = nodes;
    var filtered = Object.keys(filters()).length > 0;
    // The facets' counts of what is loaded so far are not said: kept until the final.
    if (!result.missing) showCounts(result.facets, Boolean(result.query) || filtered);
    if (more) more.hidden = result.total <= result.items.length;
    var raw = input.value;
    if (result.missing) {
      // Of the parts loaded so far: the results may change when the others are here.
      setStatus(dalilText("Loading the search index…"));
      root.dispatchEvent(new CustomEvent("dalil:partial", {
        detail: { query: result.query, total: result.total, matchMs: result.ms,
                  renderMs: performance.now() - started, partial: result.partial }
      }));
      return;
    }
    if (!result.query && !filtered) {
      setStatus(dalilText("Type the name of a business, a category or a city to see results."));
    } else if (!result.total) {
      setStatus(emptyMessage(result.query ? raw.trim() : ""), "empty");
    } else if (result.closest) {
      setStatus(dalilText("No result holds every word of “%(query)s”. The closest matches:", { query: raw.trim() }), "closest");
    } else if (result.total > result.items.length) {
      setStatus(dalilText("Results: %(total)s. The first %(shown)s are shown.", { total: result.total, shown: result.items.length }));
    } else {
      setStatus(dalilText("Results: %(total)s.", { total: result.total }));
    }
    // For tests and the benchmark: what was shown, and how long matching and rendering took.
    root.dataset.query = result.query;
    root.dataset.filters = new URLSearchParams(filters()).toString();
    root.dispatchEvent(new CustomEvent("dalil:results", {
      detail: { query: result.query, total: result.total, matchMs: result.ms,
                renderMs: performance.now() - started }
    }));
  }

  function syncUrl() {
    var params = new URLSearchParams();
    var query = input.value.trim();
    if (query) params.set("q", query);
    var chosen = filters();
    Object.keys(chosen).forEach(function (name) { params.set(name, chosen[name]); });
    var search = params.toString();
    history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
  }

  function indexFailed() {
    failed = true;
    root.dataset.ready = "error";
    setStatus(dalilText("The search index could not be loaded. Check your internet connection and reload the page, or browse the directory by category and city."), "error");
  }

  worker.onmessage = function (event) {
    var message = event.data;
    if (message.type === "index") {
      search = core.openIndex(message.index, window.dalilNameLang, partUrl);
      root.dataset.ready = String(search.size);
      ask();
    } else if (message.type === "error") {
      indexFailed();
    }
  };
  // The worker's own script could not load (offline, never cached): said, not a blank.
  worker.onerror = function (event) {
    event.preventDefault();
    if (!search) indexFailed();
  };

  var params = new URLSearchParams(location.search);
  input.setAttribute("aria-controls", list.id);
  input.value = params.get("q") || "";
  facets.forEach(function (select) {
    select.value = params.get(select.dataset.facet) || "";
    if (select.selectedIndex < 0) select.value = "";  // a slug the site does not have
    select.addEventListener("change", function () { shown = limit; ask(); syncUrl(); });
  });
  if (!input.value) input.focus();

  input.addEventListener("input", function () { shown = limit; ask(); syncUrl(); });
  if (more) {
    more.addEventListener("click", function () {
      var first = links().length;
      shown += limit;
      root.addEventListener("dalil:results", function () {
        var all = links();
        if (all[first]) all[first].focus();  // keyboard users continue where the new ones start
      }, { once: true });
      ask();
    });
  }
  if (input.form) {
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      shown = limit;
      ask();
      syncUrl();
    });
  }
  var facetForm = document.getElementById("search-facets");
  if (facetForm) facetForm.addEventListener("submit", function (event) { event.preventDefault(); });

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

  ask();  // answered again as soon as the index is ready: results for ?q= without a key
})();
