/* Dalil search core: text normalisation, index loading, matching and result cards.
   Shared by the search page and its worker, the random page and any page that reads
   /search-index.json. Exposes DalilSearch (on window, or on the worker's self). */
(function () {
  "use strict";

  // i18n.js gives the page's language; without it (a page of another theme, or the search
  // worker, which builds no cards) as written. `self` is the window or the worker.
  var dalilText = self.dalilText || function (message) { return message; };
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

  // Arabic light stemming: attached prefixes (conjunction, preposition, article) and
  // common suffixes, on normalised words (so ة is already ه); never below three letters.
  var ARTICLE_PREFIXES = ["\u0648\u0627\u0644", "\u0641\u0627\u0644", "\u0628\u0627\u0644",
                          "\u0643\u0627\u0644", "\u0644\u0644", "\u0627\u0644"];
  var LETTER_PREFIXES = "\u0648\u0641\u0628\u0643\u0644";  // و ف ب ك ل
  var SUFFIXES = ["\u0647\u0627", "\u0627\u062a", "\u0648\u0646", "\u064a\u0646", "\u0627\u0646",
                  "\u064a\u0647", "\u0647", "\u064a"];  // ها ات ون ين ان يه ه ي
  var LATIN_WORD = /^[a-z0-9]+$/;

  /* The stem of one normalised word: Arabic prefixes and a suffix off, or a Latin plural
     s or x off. The word itself when nothing can be taken off. */
  function stem(word) {
    if (word.length < 4) return word;
    if (LATIN_WORD.test(word)) {
      var last = word.charAt(word.length - 1);
      return last === "s" || last === "x" ? word.slice(0, -1) : word;
    }
    var i, stemmed = word;
    for (i = 0; i < ARTICLE_PREFIXES.length; i++) {
      if (stemmed.startsWith(ARTICLE_PREFIXES[i]) && stemmed.length - ARTICLE_PREFIXES[i].length >= 3) {
        stemmed = stemmed.slice(ARTICLE_PREFIXES[i].length);
        break;
      }
    }
    // A lone letter prefix only on a long word: بنك, فندق and كتاب start with one too.
    if (stemmed === word && stemmed.length >= 5 && LETTER_PREFIXES.indexOf(stemmed.charAt(0)) >= 0) {
      stemmed = stemmed.slice(1);
    }
    for (i = 0; i < SUFFIXES.length; i++) {
      if (stemmed.endsWith(SUFFIXES[i]) && stemmed.length - SUFFIXES[i].length >= 3) {
        return stemmed.slice(0, -SUFFIXES[i].length);
      }
    }
    return stemmed;
  }

  /* " form form … ": each word of a normalised text and its stem, so that " " + a query
     form found in it is a word (or stem) starting with that form. ``stems`` memoises
     stem(): the words of a directory repeat a lot. */
  function formsText(text, stems) {
    if (!text) return " ";
    var words = text.split(" ");
    var forms = [];
    for (var i = 0; i < words.length; i++) {
      var word = words[i];
      var stemmed = stems.get(word);
      if (stemmed === undefined) {
        stemmed = stem(word);
        stems.set(word, stemmed);
      }
      forms.push(word);
      if (stemmed !== word) forms.push(stemmed);
    }
    return " " + forms.join(" ") + " ";
  }

  /* Whether a and b are at most one edit apart: a letter changed, added or removed, or
     two neighbours swapped. */
  function withinOneEdit(a, b) {
    var la = a.length, lb = b.length;
    if (Math.abs(la - lb) > 1) return false;
    var i = 0;
    while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    if (i === la || i === lb) return true;
    if (la === lb) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;  // one substitution
      return a.charAt(i) === b.charAt(i + 1) && a.charAt(i + 1) === b.charAt(i) &&
        a.slice(i + 2) === b.slice(i + 2);  // two neighbours swapped
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  var TYPE_ORDER = { listing: 0, category: 1, location: 2, news: 3, blog: 4, page: 5 };

  /* Normalised fields and their word forms, computed once: a keystroke only compares
     strings. A listing's category group holds its category's names and Keywords, its
     address group its city's names (both made once per category and city). Items come
     in name order, so every rank lists its matches by name without a sort. */
  function prepare(entries) {
    var stems = new Map();
    var termTexts = { category: {}, location: {} };
    entries.forEach(function (entry) {
      if (termTexts[entry.t]) {
        termTexts[entry.t][entry.s] = [entry.t === "category" ? entry.n : "", entry.n_en,
                                       entry.n_fr].concat(entry.k || []).join(" ");
      }
    });
    var termForms = { category: {}, location: {} };
    Object.keys(termTexts).forEach(function (type) {
      var slugs = Object.keys(termTexts[type]);
      var norm = normalizeAll(slugs.map(function (slug) { return termTexts[type][slug]; }));
      slugs.forEach(function (slug, at) { termForms[type][slug] = formsText(norm[at], stems); });
    });
    var texts = [];
    for (var i = 0; i < entries.length; i++) {
      var entry = entries[i];
      texts.push(entry.n || "", entry.n_en || "", entry.n_fr || "",
                 entry.t === "category" ? (entry.k || []).join(" ") : entry.cs ? "" : entry.c || "",
                 entry.a || "");
    }
    var norm = normalizeAll(texts);
    var items = new Array(entries.length);
    for (i = 0; i < entries.length; i++) {
      entry = entries[i];
      var k = 5 * i;
      var names = [norm[k]];
      if (norm[k + 1]) names.push(norm[k + 1]);
      if (norm[k + 2]) names.push(norm[k + 2]);
      var nameForms = formsText(names.join(" "), stems);
      var categoryForms = (entry.cs && termForms.category[entry.cs]) || formsText(norm[k + 3], stems);
      var addressForms = formsText(norm[k + 4], stems) + (termForms.location[entry.ls] || "");
      items[i] = { entry: entry, names: names, nameForms: nameForms,
                   categoryForms: categoryForms, addressForms: addressForms };
    }
    items.sort(function (a, b) {
      var x = a.names[0], y = b.names[0];
      if (x !== y) return x < y ? -1 : 1;
      var order = TYPE_ORDER[a.entry.t] - TYPE_ORDER[b.entry.t];
      if (order) return order;
      return a.entry.s < b.entry.s ? -1 : a.entry.s > b.entry.s ? 1 : 0;
    });
    return items;
  }

  /* The inverted index: every distinct word form, sorted (so the forms starting with a
     prefix are one range), and for each the items that hold it, in item order. */
  function invert(items) {
    var postings = new Map();
    var groups = ["nameForms", "categoryForms", "addressForms"];
    for (var i = 0; i < items.length; i++) {
      for (var g = 0; g < groups.length; g++) {
        var forms = items[i][groups[g]].split(" ");
        for (var f = 0; f < forms.length; f++) {
          var form = forms[f];
          if (!form) continue;
          var list = postings.get(form);
          if (!list) postings.set(form, [i]);
          else if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
    var vocab = Array.from(postings.keys()).sort();
    return { vocab: vocab, postings: vocab.map(function (form) { return postings.get(form); }) };
  }

  /* The first position in the sorted ``vocab`` whose form is not below ``prefix``. */
  function lowerBound(vocab, prefix) {
    var low = 0, high = vocab.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (vocab[middle] < prefix) low = middle + 1; else high = middle;
    }
    return low;
  }

  var TYPO_MIN_LENGTH = 5;

  /* A query word: the needles that find it as the start of a word or stem, and (five
     letters or more) the whole words of the index one edit away, or starting one edit
     away, that it does not already find. */
  function compileWord(word, vocab) {
    var forms = [word];
    var stemmed = stem(word);
    if (stemmed !== word) forms.push(stemmed);
    var needles = forms.map(function (form) { return " " + form; });
    var typos = [];
    var typoForms = [];
    if (word.length >= TYPO_MIN_LENGTH) {
      var n = word.length;
      for (var i = 0; i < vocab.length; i++) {
        var form = vocab[i];
        if (form.length < n - 1) continue;
        var found = false;
        for (var f = 0; f < forms.length && !found; f++) {
          if (form.startsWith(forms[f])) found = true;
        }
        if (found) continue;
        var near = (form.length <= n + 1 &&
                    (withinOneEdit(word, form) || withinOneEdit(stemmed, form))) ||
          (form.length > n && (withinOneEdit(word, form.slice(0, n)) ||
                               withinOneEdit(word, form.slice(0, n + 1)) ||
                               withinOneEdit(word, form.slice(0, n - 1))));
        if (near) {
          typos.push(" " + form + " ");
          typoForms.push(i);
        }
      }
    }
    return { word: word, forms: forms, needles: needles, typos: typos, typoForms: typoForms };
  }

  function hasAny(text, needles) {
    for (var i = 0; i < needles.length; i++) if (text.indexOf(needles[i]) >= 0) return true;
    return false;
  }

  // Ranks: exact name, name prefix, words in names, in a category or its keywords, in the
  // address; a match that needs a misspelt word comes after every exact one, and news,
  // blog articles and pages after the directory's entries (but for an exact name).
  var RANK_EXACT = 0, RANK_PREFIX = 1, RANK_NAME = 2, RANK_CATEGORY = 3, RANK_ADDRESS = 4;
  var RANK_TYPO = 5, RANK_CONTENT = 10, RANKS = 20;
  var DIRECTORY_TYPES = { listing: true, category: true, location: true };

  /* The rank of an item for the compiled query, or -1 when a word does not match. */
  function rank(item, q) {
    var worst = RANK_NAME, typo = false;
    for (var w = 0; w < q.words.length; w++) {
      var word = q.words[w];
      var where = -1;
      for (var pass = 0; pass < 2 && where < 0; pass++) {
        var needles = pass ? word.typos : word.needles;
        if (!needles.length) continue;
        if (hasAny(item.nameForms, needles)) where = RANK_NAME;
        else if (q.single) where = -1;
        else if (hasAny(item.categoryForms, needles)) where = RANK_CATEGORY;
        else if (hasAny(item.addressForms, needles)) where = RANK_ADDRESS;
        if (where >= 0 && pass) typo = true;
      }
      if (where < 0) return -1;
      if (where > worst) worst = where;
    }
    if (!typo && worst === RANK_NAME) {
      for (var i = 0; i < item.names.length; i++) {
        var name = item.names[i];
        if (name === q.query || name === q.article) return RANK_EXACT;  // whatever the type
        if (name.startsWith(q.query) || name.startsWith(q.article)) worst = RANK_PREFIX;
      }
    }
    if (typo) worst += RANK_TYPO;
    return DIRECTORY_TYPES[item.entry.t] ? worst : worst + RANK_CONTENT;
  }

  /* A searcher over prepared items. Each keystroke takes the items that hold a form
     starting with the query's longest word (one range of the sorted forms, and the
     misspelt forms near it), then ranks them. One character matches the start of a
     word of a name only: "every entry with an alef" helps nobody. */
  function createSearcher(entries) {
    var all = prepare(entries);
    var inverted = invert(all);
    var vocab = inverted.vocab;
    var marks = new Uint8Array(all.length);

    /* Marks every item holding a form that starts with one of ``prefixes``. */
    function markPrefixes(prefixes) {
      for (var p = 0; p < prefixes.length; p++) {
        for (var at = lowerBound(vocab, prefixes[p]);
             at < vocab.length && vocab[at].startsWith(prefixes[p]); at++) {
          markForm(at);
        }
      }
    }

    function markForm(at) {
      var list = inverted.postings[at];
      for (var i = 0; i < list.length; i++) marks[list[i]] = 1;
    }

    function compile(query) {
      var words = query.split(" ").filter(function (word, at, list) {
        return list.indexOf(word) === at;
      }).map(function (word) { return compileWord(word, vocab); });
      return { query: query, article: "\u0627\u0644" + query, words: words,
               single: query.length === 1 };
    }

    /* Results for a query and filters ({ category: slug, city: slug }, both optional):
       { query, total, items (at most limit entries), facets, ms }. With a filter only
       listings are results, and an empty query lists every listing it keeps. facets
       counts the matching listings per category (within the city filter) and per city
       (within the category filter). */
    function search(rawQuery, limit, filters) {
      var started = performance.now();
      var query = normalize(rawQuery);
      var category = (filters && filters.category) || "";
      var city = (filters && filters.city) || "";
      var facets = { category: {}, city: {} };
      if (!query && !category && !city) {
        return { query: query, total: 0, items: [], facets: facets, ms: performance.now() - started };
      }
      var q = null;
      if (query) {
        q = compile(query);
        // The word with the fewest candidates is likely the longest one.
        var pivot = q.words.reduce(function (a, b) { return b.word.length > a.word.length ? b : a; });
        marks.fill(0);
        markPrefixes(pivot.forms);
        pivot.typoForms.forEach(markForm);
      } else {
        marks.fill(1);
      }
      var buckets = [];
      for (var b = 0; b < RANKS; b++) buckets.push([]);
      var total = 0;
      for (var index = 0; index < all.length; index++) {
        if (!marks[index]) continue;
        var entry = all[index].entry;
        if (!q && entry.t !== "listing") continue;
        var score = q ? rank(all[index], q) : RANK_EXACT;
        if (score < 0) continue;
        if (entry.t === "listing") {
          var inCategory = !category || entry.cs === category;
          var inCity = !city || entry.ls === city;
          if (inCity) facets.category[entry.cs] = (facets.category[entry.cs] || 0) + 1;
          if (inCategory) facets.city[entry.ls] = (facets.city[entry.ls] || 0) + 1;
          if (!inCategory || !inCity) continue;
        } else if (category || city) {
          continue;
        }
        total++;
        buckets[score].push(entry);
      }
      var items = [];
      for (b = 0; b < RANKS && items.length < limit; b++) {
        var bucket = buckets[b];
        for (var j = 0; j < bucket.length && items.length < limit; j++) items.push(bucket[j]);
      }
      return { query: query, total: total, items: items, facets: facets,
               ms: performance.now() - started };
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

  // The search worker loads this file too: it has no window, and never builds cards.
  (typeof window !== "undefined" ? window : self).DalilSearch = {
    normalize: normalize,
    stem: stem,
    loadIndex: loadIndex,
    createSearcher: createSearcher,
    card: card,
    join: join,
    typeLabel: function (type) { return TYPE_LABELS[type] || type; }
  };
})();
