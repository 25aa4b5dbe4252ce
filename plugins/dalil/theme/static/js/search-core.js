/* Dalil search core: text normalisation, index loading, matching and result cards.
   Shared by the search page, the random page and any page that reads /search-index.json.
   Exposes window.DalilSearch. */
(function () {
  "use strict";

  // i18n.js gives the page's language; without it (a page of another theme) as written.
  var dalilText = window.dalilText || function (message) { return message; };
  var TYPE_LABELS = {
    listing: dalilText("a listing"), category: dalilText("a category"), location: dalilText("a city"),
    news: dalilText("a news item"), blog: dalilText("a blog post"), page: dalilText("a page")
  };

  // Removed: Latin combining accents, Arabic tashkeel and Quranic marks (after NFKD the
  // hamza and madda of أ إ آ ؤ ئ are marks too), superscript alef, tatweel.
  // Also removed: soft hyphen, zero-width and direction marks, BOM.
  var MARKS = /[\u0300-\u036f\u0610-\u061a\u061c\u064b-\u065f\u0670\u06d6-\u06ed\u0640\u00ad\u200b-\u200f\ufeff]/g;
  var FOLDS = {
    "\u0671": "\u0627", // alef wasla -> alef
    "\u0649": "\u064a", // alef maqsura -> yeh
    "\u06cc": "\u064a", // Farsi yeh -> yeh
    "\u0629": "\u0647", // ta marbuta -> heh
    "\u06a9": "\u0643", // keheh -> kaf
    "\u0153": "oe", "\u00e6": "ae", "\u00df": "ss"
  };
  var FOLDABLE = /[\u0671\u0649\u06cc\u0629\u06a9\u0153\u00e6\u00df\u0660-\u0669\u06f0-\u06f9]/g;
  // Word separators other than space: ASCII and Latin-1 punctuation and symbols, Arabic
  // and Hebrew punctuation, general punctuation, symbol blocks, CJK punctuation, emoji
  // halves, private use. Everything else (Latin, Arabic, Tifinagh, ...) makes words.
  // Listed rather than \p{L}: a /u regex is several times slower on a whole index.
  // "\n" is not one: it separates the fields of a batch (normalizeAll).
  var PUNCTUATION = "\\x00-\\x09\\x0b-\\x1f\\x21-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\xbf\\xd7\\xf7" +
    "\\u02b0-\\u036f\\u055a-\\u055f\\u0589\\u058a\\u05be\\u05c0\\u05c3\\u05c6\\u05f3\\u05f4" +
    "\\u0600-\\u060f\\u061b-\\u061f\\u066a-\\u066d\\u06d4\\u06dd\\u06de\\u06e9" +
    "\\u2000-\\u2bff\\u2e00-\\u2e7f\\u3000-\\u303f\\ud800-\\udfff\\ue000-\\uf8ff\\ufe10-\\ufe6f\\ufff0-\\uffff";
  // A lone space is already right: only other runs are replaced (far fewer matches).
  var SEPARATORS = new RegExp("[ " + PUNCTUATION + "]{2,}|[" + PUNCTUATION + "]", "g");
  var SPACE_NEWLINE = / +\n|\n +/g;

  function fold(ch) {
    var code = ch.charCodeAt(0);
    if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
    if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
    return FOLDS[ch];
  }

  function clean(text) {
    return text.normalize("NFKD").toLowerCase()
      .replace(MARKS, "").replace(FOLDABLE, fold).replace(SEPARATORS, " ");
  }

  /* Lowercase, no accents, no tashkeel or tatweel, hamza forms of alef -> alef,
     ta marbuta -> heh, alef maqsura -> yeh, Arabic-Indic digits -> 0-9, any run of
     punctuation or spaces -> one space. */
  function normalize(text) {
    if (!text) return "";
    return clean(String(text).replace(/\n/g, " ")).trim();
  }

  /* normalize() of many strings at once: one pass over one long string is far faster
     than a call per string. Index text is plain text, without line breaks. */
  function normalizeAll(texts) {
    var parts = clean(texts.join("\n")).replace(SPACE_NEWLINE, "\n").split("\n");
    if (parts.length !== texts.length) return texts.map(normalize);
    parts[0] = parts[0].trim();
    parts[parts.length - 1] = parts[parts.length - 1].trim();
    return parts;
  }

  var loads = {};

  /* The index as an array of entries; one fetch per URL and page. */
  function loadIndex(url) {
    if (!loads[url]) {
      loads[url] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("search index: HTTP " + response.status);
        return response.json();
      }).then(function (entries) {
        if (!Array.isArray(entries)) throw new Error("search index: not an array");
        return entries;
      });
      loads[url].catch(function () { delete loads[url]; });
    }
    return loads[url];
  }

  /* Normalised fields, computed once: a keystroke only compares strings. */
  function prepare(entries) {
    var texts = [];
    for (var i = 0; i < entries.length; i++) {
      var entry = entries[i];
      texts.push(entry.n || "", entry.n_en || "", entry.n_fr || "", entry.c || "", entry.a || "");
    }
    var norm = normalizeAll(texts);
    var items = new Array(entries.length);
    for (i = 0; i < entries.length; i++) {
      var k = 5 * i;
      var names = [norm[k]];
      if (norm[k + 1]) names.push(norm[k + 1]);
      if (norm[k + 2]) names.push(norm[k + 2]);
      items[i] = { entry: entries[i], names: names,
                   text: names.join(" ") + " " + norm[k + 3] + " " + norm[k + 4] };
    }
    return items;
  }

  /* The query and the forms rank() looks for, built once per keystroke. */
  function compile(query) {
    var words = query.split(" ");
    var longest = words.reduce(function (a, b) { return b.length > a.length ? b : a; });
    // The scan looks for the longest word without a leading al- (ال): it starts so many
    // Arabic words that searching for it is slow; each candidate is then checked.
    var needle = longest.length > 3 && longest.startsWith("\u0627\u0644") ? longest.slice(2) : longest;
    return { query: query, words: words, needle: needle, exact: needle === query,
             article: "\u0627\u0644" + query, word: " " + query,
             articleWord: " \u0627\u0644" + query };
  }

  function hasWords(text, words) {
    for (var w = 0; w < words.length; w++) {
      if (text.indexOf(words[w]) < 0) return false;
    }
    return true;
  }

  /* 0 exact name, 1 name starts with the query (or with al- + query), 2 a word of a name
     does, 3 every word is in one name, 4 elsewhere (category, address). */
  function rank(names, q) {
    var best = 4;
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (name === q.query) return 0;
      if (best > 1 && (name.startsWith(q.query) || name.startsWith(q.article))) best = 1;
      else if (best > 2 && (name.indexOf(q.word) >= 0 || name.indexOf(q.articleWord) >= 0)) best = 2;
      else if (best > 3 && hasWords(name, q.words)) best = 3;
    }
    return best;
  }

  /* A searcher over prepared items. A fresh query scans one long string of every
     entry's text; typing more of the same query only re-checks the previous matches
     (a longer query can only match fewer entries). A single character matches the
     start of a word of a name only: "every entry with an alef" helps nobody. */
  function createSearcher(entries) {
    var all = prepare(entries);
    var ends = new Array(all.length);
    var offset = -1;
    for (var i = 0; i < all.length; i++) {
      offset += all[i].text.length + 1;
      ends[i] = offset;
    }
    var haystack = all.map(function (item) { return item.text; }).join("\n");
    var last = { query: null, matches: all };

    function scanAll(q, keep) {
      var at = haystack.indexOf(q.needle);
      var item = 0;
      while (at >= 0) {
        while (ends[item] < at) item++;
        if (q.exact || hasWords(all[item].text, q.words)) keep(all[item], -1);
        at = haystack.indexOf(q.needle, ends[item] + 1);
      }
    }

    function scanPool(pool, q, keep) {
      for (var i = 0; i < pool.length; i++) {
        if (hasWords(pool[i].text, q.words)) keep(pool[i], -1);
      }
    }

    function scanNameStarts(q, keep) {
      for (var i = 0; i < all.length; i++) {
        var score = rank(all[i].names, q);
        if (score < 3) keep(all[i], score);
      }
    }

    function search(rawQuery, limit) {
      var started = performance.now();
      var query = normalize(rawQuery);
      if (!query) {
        last = { query: null, matches: all };
        return { query: query, total: 0, items: [], ms: performance.now() - started };
      }
      var q = compile(query);
      var buckets = [[], [], [], [], []];
      var matches = [];
      var keep = function (item, score) {
        matches.push(item);
        buckets[score < 0 ? rank(item.names, q) : score].push(item);
      };
      if (query.length === 1) scanNameStarts(q, keep);
      else if (last.query !== null && query.startsWith(last.query)) scanPool(last.matches, q, keep);
      else scanAll(q, keep);
      // One character matched name starts only, not a superset of longer queries' matches.
      last = { query: query.length > 1 ? query : null, matches: query.length > 1 ? matches : all };
      // Buckets keep index order (type, then slug) within a rank: no sort needed.
      var items = [];
      for (var b = 0; b < buckets.length && items.length < limit; b++) {
        var bucket = buckets[b];
        for (var j = 0; j < bucket.length && items.length < limit; j++) items.push(bucket[j].entry);
      }
      return { query: query, total: matches.length, items: items, ms: performance.now() - started };
    }

    return { search: search, size: all.length };
  }

  function join(base, path) {
    if (/^https?:\/\//.test(path)) return path;
    return (base || "").replace(/\/$/, "") + path;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* A result card, built with DOM methods: names are text, never markup. */
  function card(entry, base, headingTag) {
    var link = element("a", "result-link");
    link.href = join(base, entry.url);
    if (entry.img) {
      var img = element("img", "result-image");
      img.src = join(base, entry.img);
      img.alt = "";
      img.width = 96;
      img.height = 60;
      img.loading = "lazy";
      link.appendChild(img);
    }
    var body = element("span", "result-body");
    var name = element(headingTag || "span", "result-name", entry.n);
    name.dir = "auto";
    body.appendChild(name);
    [["n_en", "en"], ["n_fr", "fr"]].forEach(function (pair) {
      if (entry[pair[0]] && entry[pair[0]] !== entry.n) {
        var alt = element("span", "result-alt", entry[pair[0]]);
        alt.lang = pair[1];
        alt.dir = "ltr";
        body.appendChild(alt);
      }
    });
    var meta = element("span", "result-meta");
    meta.appendChild(element("span", "result-type type-" + entry.t, TYPE_LABELS[entry.t] || entry.t));
    if (entry.c) meta.appendChild(element("span", "result-category", entry.c));
    if (entry.a) meta.appendChild(element("span", "result-address", entry.a));
    body.appendChild(meta);
    link.appendChild(body);
    return link;
  }

  window.DalilSearch = {
    normalize: normalize,
    loadIndex: loadIndex,
    createSearcher: createSearcher,
    card: card,
    join: join,
    typeLabel: function (type) { return TYPE_LABELS[type] || type; }
  };
})();
