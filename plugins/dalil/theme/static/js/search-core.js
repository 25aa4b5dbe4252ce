/* Dalil search core: text normalisation, index loading, matching and result cards.
   Shared by the search page and its worker, the random page and any page that reads
   /search-index.json or the index in parts (/search/index/head.json and its parts). Exposes DalilSearch (on window, or on the worker's self). */
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

  /* The index: /search-index.json's array of entries, or the head of the index in parts
     (its format is checked); one fetch per URL and page, or ``started``, the fetch of
     ``url`` already under way. */
  function loadIndex(url, started) {
    if (!loads[url]) {
      loads[url] = (started || fetch(url, { credentials: "same-origin" })).then(function (response) {
        if (!response.ok) throw new Error("search index: HTTP " + response.status);
        return response.json();
      }).then(function (index) {
        if (!Array.isArray(index) && !(index && index.format === HEAD_FORMAT)) {
          throw new Error("search index: neither an array nor the head of an index in parts");
        }
        return index;
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
    var stemmed = withoutPrefix(word);
    for (var i = 0; i < SUFFIXES.length; i++) {
      if (stemmed.endsWith(SUFFIXES[i]) && stemmed.length - SUFFIXES[i].length >= 3) {
        return stemmed.slice(0, -SUFFIXES[i].length);
      }
    }
    return stemmed;
  }

  /* An Arabic word without its attached prefix (article, conjunction, preposition),
     never below three letters; the word itself when it has none. */
  function withoutPrefix(word) {
    if (word.length < 4 || LATIN_WORD.test(word)) return word;
    for (var i = 0; i < ARTICLE_PREFIXES.length; i++) {
      if (word.startsWith(ARTICLE_PREFIXES[i]) && word.length - ARTICLE_PREFIXES[i].length >= 3) {
        return word.slice(ARTICLE_PREFIXES[i].length);
      }
    }
    // A lone letter prefix only on a long word: بنك, فندق and كتاب start with one too.
    if (word.length >= 5 && LETTER_PREFIXES.indexOf(word.charAt(0)) >= 0) return word.slice(1);
    return word;
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

  // A query of digits and phone punctuation only, four digits or more, is also a phone.
  var PHONE_QUERY = /^\+?[0-9 ().\/-]+$/, PHONE_MIN_DIGITS = 4, COUNTRY_CODE_MAX = 3;

  /* The phone a query may be: { digits, international } (international: typed after
     + or 00, which are not digits of it), or null. */
  function phoneQuery(raw) {
    var text = String(raw || "").replace(/[\u0660-\u0669\u06f0-\u06f9]/g, fold).trim();
    if (!PHONE_QUERY.test(text)) return null;
    var digits = text.replace(/[^0-9]/g, "");
    var international = text.charAt(0) === "+" || digits.startsWith("00");
    if (international && text.charAt(0) !== "+") digits = digits.slice(2);
    return digits.length >= PHONE_MIN_DIGITS ? { digits: digits, international: international } : null;
  }

  /* Whether a listing's phone (the index's p: digits, after + when international)
     holds the typed one. A country code (1 to 3 digits) typed stands for the trunk 0 of
     a phone written nationally, and the other way round. */
  function phoneMatches(phone, typed) {
    var international = phone.charAt(0) === "+", digits = international ? phone.slice(1) : phone;
    if (digits.indexOf(typed.digits) >= 0) return true;
    for (var code = 1; code <= COUNTRY_CODE_MAX; code++) {
      if (typed.international && !international && digits.charAt(0) === "0" &&
          typed.digits.length - code >= 3 && digits.startsWith(typed.digits.slice(code), 1)) return true;
      if (!typed.international && international && typed.digits.charAt(0) === "0" &&
          digits.startsWith(typed.digits.slice(1), code)) return true;
    }
    return false;
  }

  var TYPES = ["listing", "category", "location", "news", "blog", "page"];
  var HEAD_FORMAT = "dalil-search-head/2", PART_FORMAT = "dalil-search-part/2";
  // An entry's texts in the index in parts, in chunked.py's order (TEXT_FIELDS).
  var TEXT_FIELDS = ["n", "n_en", "n_fr", "a"];
  var NAME = 0, NAME_EN = 1, NAME_FR = 2, ADDRESS = 3, FIELDS = 4, NAMES = 3;
  var SLUG_FIELD = "{slug}";

  // Digits of the integer columns (chunked.py, encode_numbers).
  var LAST_DIGIT = 0x23, MORE_DIGIT = 0x5d;

  /* The numbers of an integer column: base-32 digits, a number's last digit from
     U+0023, the others from U+005D. */
  function decodeNumbers(text) {
    var length = 0, i, code;
    for (i = 0; i < text.length; i++) if (text.charCodeAt(i) < MORE_DIGIT) length++;
    var numbers = new Int32Array(length), at = 0, value = 0;
    for (i = 0; i < text.length; i++) {
      code = text.charCodeAt(i);
      if (code >= MORE_DIGIT) {
        value = value * 32 + code - MORE_DIGIT;
      } else {
        numbers[at++] = value * 32 + code - LAST_DIGIT;
        value = 0;
      }
    }
    return numbers;
  }

  /* What results show of the entries, by search index position: slugs, and the page
     and image paths off their pattern. Filled by addDisplay as display parts load. */
  function createDisplay(count) {
    return { slugs: new Array(count), url: new Map(), img: new Map() };
  }

  /* The slugs and exceptions of a block (the head's terms, or a display part). */
  function addDisplay(display, block) {
    var gaps = decodeNumbers(block.entries), slugs = block.slug ? block.slug.split(" ") : [];
    var numbers = new Int32Array(gaps.length), number = 0, e;
    for (e = 0; e < gaps.length; e++) {
      number += gaps[e];
      numbers[e] = number;
      display.slugs[number] = slugs[e];
    }
    block.url_exceptions.forEach(function (pair) { display.url.set(numbers[pair[0]], pair[1]); });
    block.img_exceptions.forEach(function (pair) { display.img.set(numbers[pair[0]], pair[1]); });
  }

  /* The entries a pool has loaded, prepared (createEntries): ``add`` appends the records
     of a block of the head or of a part (its entries not loaded yet) and prepares only
     them. Entries keep their search index positions (``number``): name order breaks
     ties by them, and results are shown from ``display``. Categories and cities come
     first (the head's terms), so a record's term (1 + its place among them) is its
     place in the pool. */
  function createPool(head, display) {
    var pool = { place: new Int32Array(head.count), phones: new Map(),
                 entries: createEntries(head.vocabulary, { display: display, images: head.images,
                   img_patterns: head.img_patterns, url_patterns: head.url_patterns,
                   term_listings: head.termListings }) };
    /* How many of the block's entries were new, or brought their phones. */
    pool.add = function (block) {
      var gaps = decodeNumbers(block.entries), records = decodeNumbers(block.records);
      var phones = block.phone ? block.phone.split(" ") : null, entries = pool.entries;
      var local = new Map(), number = 0, at = 0, added = 0, f;
      var data = { number: [], type: [], text_lengths: [], text_tokens: [], category: [],
                   city: [], img: [], keywords: [], phone: null };
      (block.keywords || []).forEach(function (pair) { local.set("k" + pair[0], pair[1]); });
      for (var e = 0; e < gaps.length; e++) {
        number += gaps[e];
        var start = at, tokens = 0;
        for (f = 1; f <= FIELDS; f++) tokens += records[start + f];
        at = start + 1 + FIELDS + tokens + 3;
        if (phones) {
          pool.phones.set(number, phones[e]);
          // An entry loaded already gets its phone now.
          if (pool.place[number]) setPhone(entries, pool.place[number] - 1, phones[e]);
          added++;
        }
        if (pool.place[number]) continue;
        var position = entries.count + data.number.length;
        pool.place[number] = position + 1;
        if (!phones) added++;
        data.number.push(number);
        data.type.push(records[start]);
        for (f = 1; f <= FIELDS; f++) data.text_lengths.push(records[start + f]);
        for (f = start + 1 + FIELDS; f < start + 1 + FIELDS + tokens; f++) data.text_tokens.push(records[f]);
        data.category.push(records[at - 3] - 1);
        data.city.push(records[at - 2] - 1);
        data.img.push(records[at - 1]);
        if (local.has("k" + e)) data.keywords.push([position, local.get("k" + e)]);
      }
      if (pool.phones.size) {
        data.phone = data.number.map(function (number) { return pool.phones.get(number) || ""; });
      }
      if (data.number.length) appendEntries(entries, data);
      return added;
    };
    return pool;
  }

  /* The phone of the prepared entry ``position``. */
  function setPhone(index, position, phone) {
    for (var e = index.phones.length; e < index.count; e++) index.phones[e] = "";
    index.phones[position] = phone || "";
  }

  /* The decoded columns of the index in parts (createPool) made from the entries of
     /search-index.json by the same split on the ASCII space, so that a searcher
     answers alike whichever of the two it was given. */
  function columnsFromEntries(entries) {
    var tokens = [], tokenIds = new Map(), position = new Map();
    var count = entries.length, lengths = new Int32Array(count * FIELDS), textTokens = [];
    var none = TYPES.map(function () { return ""; });
    var columns = { url_patterns: none, img_patterns: none, tokens: tokens,
                    type: new Int32Array(count), text_lengths: lengths,
                    display: createDisplay(count),
                    category: new Int32Array(count), city: new Int32Array(count),
                    img: new Int32Array(count), images: [],
                    phone: entries.map(function (entry) { return entry.p || ""; }),
                    number: new Int32Array(count), keywords: [], plurals: [] };
    function ids(text) {
      if (!text) return [];
      return text.split(" ").map(function (token) {
        var id = tokenIds.get(token);
        if (id === undefined) {
          id = tokens.length;
          tokens.push(token);
          tokenIds.set(token, id);
        }
        return id;
      });
    }
    function find(type, slug) {
      var at = slug ? position.get(type + "/" + slug) : undefined;
      return at === undefined ? -1 : at;
    }
    entries.forEach(function (entry, at) { position.set(entry.t + "/" + entry.s, at); });
    entries.forEach(function (entry, at) {
      columns.number[at] = at;
      columns.type[at] = TYPES.indexOf(entry.t);
      TEXT_FIELDS.forEach(function (field, f) {
        var list = ids(entry[field]);
        lengths[at * FIELDS + f] = list.length;
        for (var i = 0; i < list.length; i++) textTokens.push(list[i]);
      });
      columns.category[at] = find("category", entry.cs);
      columns.city[at] = find("location", entry.ls);
      columns.display.slugs[at] = entry.s;
      if (entry.img) columns.display.img.set(at, entry.img);
      columns.display.url.set(at, entry.url);
      if (entry.k && entry.k.length) columns.keywords.push([at, entry.k.map(ids)]);
    });
    columns.text_tokens = new Int32Array(textTokens);
    return columns;
  }

  /* The first position in the sorted ``list`` not below ``prefix``, from ``low``. */
  function lowerBound(list, prefix, low) {
    var high = list.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (list[middle] < prefix) low = middle + 1; else high = middle;
    }
    return low;
  }

  /* [first, end) of the strings of the sorted ``list`` that start with ``prefix``. */
  function prefixRange(list, prefix) {
    var first = lowerBound(list, prefix, 0), low = first, high = list.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (list[middle].startsWith(prefix)) low = middle + 1; else high = middle;
    }
    return [first, low];
  }

  /* [tokens, entries]: every token of the fields [from, to) of each entry of
     [first, end), and of the ``extra`` [entry, tokens] pairs, with the entry that holds it. */
  function tokenPairs(first, end, textStart, textTokens, from, to, extra) {
    var total = 0, e, k, at = 0;
    for (e = first; e < end; e++) total += textStart[e * FIELDS + to] - textStart[e * FIELDS + from];
    extra.forEach(function (pair) { total += pair[1].length; });
    var tokens = new Int32Array(total), entries = new Int32Array(total);
    for (e = first; e < end; e++) {
      for (k = textStart[e * FIELDS + from]; k < textStart[e * FIELDS + to]; k++) {
        tokens[at] = textTokens[k];
        entries[at++] = e;
      }
    }
    extra.forEach(function (pair) {
      for (k = 0; k < pair[1].length; k++) {
        tokens[at] = pair[1][k];
        entries[at++] = pair[0];
      }
    });
    return [tokens, entries];
  }

  /* For each term (category or city entry), its listings among the entries [first,
     end): [terms, listings] pairs. */
  function memberPairs(termOf, first, end) {
    var size = 0, e, at = 0;
    for (e = first; e < end; e++) if (termOf[e] >= 0) size++;
    var entries = new Int32Array(size), terms = new Int32Array(size);
    for (e = first; e < end; e++) {
      if (termOf[e] >= 0) {
        entries[at] = e;
        terms[at++] = termOf[e];
      }
    }
    return [terms, entries];
  }

  /* What a keystroke reads of the vocabulary, made once from the raw tokens. Only the
     distinct raw tokens are normalised and stemmed; a token gives 0..n words. Words and
     forms (a word and its stem) are numbered in sorted order, so the ones starting with
     a prefix are one range. */
  function prepareVocabulary(tokens, plurals) {
    var tokenCount = tokens.length;
    var normalised = normalizeAll(tokens);
    var wordIds = new Map(), words = [], tokenWordList = [];
    var tokenWordStart = new Int32Array(tokenCount + 1);
    for (var t = 0; t < tokenCount; t++) {
      tokenWordStart[t] = tokenWordList.length;
      var parts = normalised[t] ? normalised[t].split(" ") : [];
      for (var p = 0; p < parts.length; p++) {
        var id = wordIds.get(parts[p]);
        if (id === undefined) {
          id = words.length;
          words.push(parts[p]);
          wordIds.set(parts[p], id);
        }
        tokenWordList.push(id);
      }
    }
    tokenWordStart[tokenCount] = tokenWordList.length;
    var sortedWords = words.slice().sort();
    var wordRank = new Int32Array(words.length);
    sortedWords.forEach(function (word, rank) { wordRank[wordIds.get(word)] = rank; });
    var tokenWords = new Int32Array(tokenWordList.length);
    for (var k = 0; k < tokenWordList.length; k++) tokenWords[k] = wordRank[tokenWordList[k]];

    var stems = sortedWords.map(stem);
    var forms = Array.from(new Set(sortedWords.concat(stems))).sort();
    var formIds = new Map();
    forms.forEach(function (form, at) { formIds.set(form, at); });
    var wordForm = new Int32Array(sortedWords.length), stemForm = new Int32Array(sortedWords.length);
    for (var w = 0; w < sortedWords.length; w++) {
      wordForm[w] = formIds.get(sortedWords[w]);
      stemForm[w] = formIds.get(stems[w]);
    }
    return { vocabulary: true, tokens: tokens, plurals: pluralForms(plurals || []),
             tokenCount: tokenCount, tokenWordStart: tokenWordStart, tokenWords: tokenWords,
             words: sortedWords, forms: forms, wordForm: wordForm, stemForm: stemForm,
             collation: collationRanks(sortedWords) };
  }

  /* A typed array of ``array``'s kind holding at least ``size`` items, ``array`` itself
     while it has room: appending costs what is appended (the room doubles). */
  function room(array, size) {
    if (size <= array.length) return array;
    var grown = new array.constructor(Math.max(size, 2 * array.length, 16));
    grown.set(array);
    return grown;
  }

  /* Lists of numbers by key, made by appending: each append gives every key it names one
     segment of ``values`` (start, end), linked from the key's latest (``first``, then
     ``next``): adding costs what is added, and a key's values are read segment by
     segment, newest first (they mark entries: their order does not count). */
  function createLists(keys) {
    return { first: new Int32Array(keys), next: new Int32Array(16), start: new Int32Array(16),
             end: new Int32Array(16), segments: 1, values: new Int32Array(16), size: 0,
             counts: new Int32Array(keys), touched: [] };
  }

  /* Appends the values[i] paired with keys[i] (i in [0, length)), grouped by key. */
  function appendLists(lists, keys, values, length) {
    var counts = lists.counts = room(lists.counts, lists.first.length), touched = lists.touched;
    var i, key, segment;
    for (i = 0; i < length; i++) {
      if (!counts[keys[i]]++) touched.push(keys[i]);
    }
    var segments = lists.segments + touched.length;
    lists.next = room(lists.next, segments);
    lists.start = room(lists.start, segments);
    lists.end = room(lists.end, segments);
    lists.values = room(lists.values, lists.size + length);
    for (i = 0; i < touched.length; i++) {
      key = touched[i];
      segment = lists.segments++;
      lists.start[segment] = lists.end[segment] = lists.size;
      lists.size += counts[key];
      lists.next[segment] = lists.first[key];
      lists.first[key] = segment;
      counts[key] = 0;
    }
    for (i = 0; i < length; i++) {
      segment = lists.first[keys[i]];
      lists.values[lists.end[segment]++] = values[i];
    }
    touched.length = 0;
  }

  /* Room in ``lists`` for keys up to ``keys``. */
  function growLists(lists, keys) {
    if (keys > lists.first.length) lists.first = room(lists.first, keys);
  }

  /* Everything a keystroke reads of the entries, from a prepared vocabulary: empty,
     then grown by appendEntries (an index in parts, as its parts arrive; the entries of
     /search-index.json at once). ``shared``: the columns that are the same for every
     entry (display, images, patterns, and the head's listings per category or city). */
  function createEntries(vocabulary, shared) {
    return {
      prepared: true,
      count: 0, tokens: vocabulary.tokens, display: shared.display, number: new Int32Array(16),
      type: new Int32Array(16), img: new Int32Array(16), images: shared.images,
      imgPatterns: shared.img_patterns, phones: [], plurals: vocabulary.plurals,
      urlPatterns: shared.url_patterns,
      tokenCount: vocabulary.tokenCount, tokenWordStart: vocabulary.tokenWordStart,
      tokenWords: vocabulary.tokenWords, words: vocabulary.words, forms: vocabulary.forms,
      wordForm: vocabulary.wordForm, stemForm: vocabulary.stemForm,
      collation: vocabulary.collation,
      textStart: new Int32Array(16), textTokens: new Int32Array(16), keywords: [],
      nameStart: new Int32Array(16), nameWords: new Int32Array(16),
      namePostings: createLists(vocabulary.tokenCount),
      otherPostings: createLists(vocabulary.tokenCount),
      category: new Int32Array(16), city: new Int32Array(16),
      members: { category: createLists(16), city: createLists(16) },
      terms: { category: [], location: [] },
      // Each category's and city's listings, counted as they are added, or as the head
      // of an index in parts says (not all may be loaded).
      termListings: shared.term_listings ? Int32Array.from(shared.term_listings) : new Int32Array(16),
      countListings: !shared.term_listings,
      order: new Int32Array(16)
    };
  }

  /* Appends entries to a prepared index (createEntries), numbered on from its count:
     ``data`` holds their columns (type, text_lengths, text_tokens, category, city
     (positions in the index, or -1), img, number, phone: a list or null) and keywords
     ([position, [tokens of each keyword]]). Only they are prepared; the postings and
     member lists gain a segment per key; name order is theirs sorted, merged into it. */
  function appendEntries(index, data) {
    var added = data.type.length, before = index.count, count = before + added;
    var tokenWordStart = index.tokenWordStart, tokenWords = index.tokenWords;
    var e, f, n, k, at, field, token;
    ["number", "type", "img", "category", "city"].forEach(function (column) {
      index[column] = room(index[column], count);
      index[column].set(data[column], before);
    });
    // Phones: none, or one per entry ("" none).
    if (data.phone || index.phones.length) {
      for (e = index.phones.length; e < before; e++) index.phones[e] = "";
      for (e = 0; e < added; e++) index.phones[before + e] = data.phone && data.phone[e] || "";
    }
    // Where each field's tokens start, and the tokens.
    var textStart = index.textStart = room(index.textStart, count * FIELDS + 1);
    for (f = 0; f < added * FIELDS; f++) {
      textStart[before * FIELDS + f + 1] = textStart[before * FIELDS + f] + data.text_lengths[f];
    }
    var first = textStart[before * FIELDS], tokensAdded = textStart[count * FIELDS] - first;
    var textTokens = index.textTokens = room(index.textTokens, first + tokensAdded);
    textTokens.set(data.text_tokens, first);
    // [category entry, the tokens of all its keywords]
    var keywords = data.keywords.map(function (pair) {
      return [pair[0], new Int32Array([].concat.apply([], pair[1]))];
    });
    keywords.forEach(function (pair) { index.keywords.push(pair); });
    // The words of each name (n, n_en, n_fr), for name order and exact and prefix ranks:
    // counted, then written (no growing array).
    var nameStart = index.nameStart = room(index.nameStart, count * NAMES + 1);
    for (e = before; e < count; e++) {
      for (n = 0; n < NAMES; n++) {
        var length = 0;
        field = e * FIELDS + n;
        for (at = textStart[field]; at < textStart[field + 1]; at++) {
          token = textTokens[at];
          length += tokenWordStart[token + 1] - tokenWordStart[token];
        }
        nameStart[e * NAMES + n + 1] = nameStart[e * NAMES + n] + length;
      }
    }
    var name = index.nameWords = room(index.nameWords, nameStart[count * NAMES]);
    var written = nameStart[before * NAMES];
    for (e = before; e < count; e++) {
      for (n = 0; n < NAMES; n++) {
        field = e * FIELDS + n;
        for (at = textStart[field]; at < textStart[field + 1]; at++) {
          token = textTokens[at];
          for (k = tokenWordStart[token]; k < tokenWordStart[token + 1]; k++) name[written++] = tokenWords[k];
        }
      }
    }
    // Token -> entries: through a name, and through an address or a category's keywords.
    var pairs = tokenPairs(before, count, textStart, textTokens, NAME, NAMES, []);
    appendLists(index.namePostings, pairs[0], pairs[1], pairs[0].length);
    pairs = tokenPairs(before, count, textStart, textTokens, ADDRESS, FIELDS, keywords);
    appendLists(index.otherPostings, pairs[0], pairs[1], pairs[0].length);
    // A category's or city's listings.
    [["category", index.category], ["city", index.city]].forEach(function (kind) {
      var members = index.members[kind[0]];
      growLists(members, count);
      pairs = memberPairs(kind[1], before, count);
      appendLists(members, pairs[0], pairs[1], pairs[0].length);
      if (index.countListings) {
        index.termListings = room(index.termListings, count);
        for (k = 0; k < pairs[0].length; k++) index.termListings[pairs[0][k]]++;
      }
    });
    for (e = before; e < count; e++) {
      if (TYPES[index.type[e]] in index.terms) index.terms[TYPES[index.type[e]]].push(e);
    }
    index.count = count;
    mergeOrder(index, before, count);
    return index;
  }

  /* Name order of the entries [0, count): those from ``before`` sorted, merged into the
     order of the others (the same order as sorting them all). */
  function mergeOrder(index, before, count) {
    var collation = index.collation, number = index.number;
    var nameStart = index.nameStart, name = index.nameWords;
    function compare(a, b) {
      var i = nameStart[a * NAMES], j = nameStart[b * NAMES];
      var endA = nameStart[a * NAMES + 1], endB = nameStart[b * NAMES + 1];
      for (; i < endA && j < endB; i++, j++) {
        if (name[i] !== name[j]) return collation[name[i]] - collation[name[j]];
      }
      // A shorter name first; then the search index's order: type and slug.
      return (endA - i) - (endB - j) || number[a] - number[b];
    }
    var added = [], e;
    for (e = before; e < count; e++) added.push(e);
    added.sort(compare);
    // Each added entry goes where a binary search puts it among the others, which move
    // by runs (copied, not compared).
    var old = index.order, order = new Int32Array(Math.max(count, 16));
    var from = 0, at = 0;
    for (var j = 0; j < added.length; j++) {
      var low = from, high = before;
      while (low < high) {
        var middle = (low + high) >> 1;
        if (compare(old[middle], added[j]) < 0) low = middle + 1; else high = middle;
      }
      order.set(old.subarray(from, low), at);
      at += low - from;
      from = low;
      order[at++] = added[j];
    }
    order.set(old.subarray(from, before), at);
    index.order = order;
  }

  /* Everything a keystroke reads, from a prepared vocabulary and the columns of all the
     entries (/search-index.json's). Entries are numbered as in the columns. */
  function prepareEntries(vocabulary, data) {
    return appendEntries(createEntries(vocabulary, data), data);
  }

  /* Each of the sorted normalised ``words``' place in name order: as in Arabic
     collation, digits, then Arabic letters (whose code points, once normalised, follow
     the alphabet), then words led by a Latin letter, then by any later script;
     punctuation is gone already. The words are in code-point order: this only moves
     the Latin-led ones after the Arabic-led, in one pass (no sort on a page's load). */
  function collationRanks(words) {
    var ranks = new Int32Array(words.length), next = 0, w, code;
    function group(wanted) {
      for (w = 0; w < words.length; w++) {
        code = words[w].charCodeAt(0);
        // 0: digits, Arabic (and the rare Latin-1 left); 1: Latin; 2: later scripts.
        var kind = code >= 0x61 && code <= 0x7a ? 1 : code >= 0x0700 ? 2 : 0;
        if (kind === wanted) ranks[w] = next++;
      }
    }
    group(0);
    group(1);
    group(2);
    return ranks;
  }

  /* Each normalised word of the [broken plural, singular] pairs with the other forms it
     stands for: {word: [forms]} (a plain object: the worker hands it over). */
  function pluralForms(pairs) {
    var forms = {};
    function add(word, other) {
      if (!Object.prototype.hasOwnProperty.call(forms, word)) forms[word] = [];
      if (forms[word].indexOf(other) < 0) forms[word].push(other);
    }
    pairs.forEach(function (pair) {
      var plural = normalize(pair[0]), singular = normalize(pair[1]);
      add(plural, singular);
      add(singular, plural);
    });
    return forms;
  }

  /* What a searcher reads, from /search-index.json's entries, or made already (returned
     as it is); or, from the head of the index in parts, its prepared vocabulary and
     what says which part holds what (openIndex loads the parts). It holds only arrays,
     typed arrays and plain objects: a worker can make it and hand it over
     (transferList). */
  function prepareIndex(data) {
    if (data && (data.prepared === true || data.head === true)) return data;
    if (Array.isArray(data)) {
      var columns = columnsFromEntries(data);
      return prepareEntries(prepareVocabulary(columns.tokens, columns.plurals), columns);
    }
    return { head: true, version: data.version, count: data.count, parts: data.parts,
             tokenPart: decodeNumbers(data.token_part), addressPart: decodeNumbers(data.address_part),
             termPart: decodeNumbers(data.term_part),
             phonePart: data.phone_part, termListings: decodeNumbers(data.term_listings),
             displaySize: data.display_size, displayPart: data.display_part,
             url_patterns: data.url_patterns, images: data.images,
             img_patterns: data.img_patterns, plurals: data.plurals, terms: data.terms,
             vocabulary: prepareVocabulary(data.tokens, data.plurals) };
  }

  var partLoads = {};

  /* A part of the index in parts: one fetch per URL at a time (the pool keeps what it
     holds, not this). */
  function loadPart(url) {
    if (!partLoads[url]) {
      partLoads[url] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("search index part: HTTP " + response.status);
        return response.json();
      }).then(function (part) {
        if (!part || part.format !== PART_FORMAT) throw new Error("search index part: not a part");
        return part;
      });
      partLoads[url].then(forget, forget);
    }
    return partLoads[url];
    function forget() { delete partLoads[url]; }
  }

  // Entries a page keeps loaded: about 300 bytes each once prepared. Past it, the pool
  // starts again from the head with the parts of the query asked (which it may exceed).
  var POOL_LIMIT = 200000;

  /* The search over a prepared index (prepareIndex): answer(query, limit, filters)
     gives the results (as createSearcher's search) at once, from what is loaded, with
     ``missing``: null when they are final, else the parts (numbers) still to load, and
     ``partial``: whether those may change the results (parts that may hold matches)
     rather than only complete the shown ones (their display parts: slugs and paths);
     load(result) loads them, and the same question asked again is answered in full.
     The index in parts loads into a pool the head's categories and cities, then the
     parts each query needs (``partUrl(name)``): the same searcher code ranks what is
     loaded, which holds every entry that may match. ``poolLimit``: POOL_LIMIT. */
  function openIndex(data, nameLang, partUrl, poolLimit) {
    var index = prepareIndex(data);
    if (!index.head) {
      var whole = createSearcher(index, nameLang);
      return { size: whole.size, answer: function (rawQuery, limit, filters) {
        var result = whole.search(rawQuery, limit, filters);
        result.missing = null;
        result.partial = false;
        return result;
      }, searcher: whole, load: function () { return Promise.resolve(); } };
    }
    var display = createDisplay(index.count);
    var shown = new Uint8Array(index.parts.length);  // display parts loaded
    addDisplay(display, index.terms);
    var pool = null, loaded = null;
    function emptyPool() {
      pool = createPool(index, display);
      loaded = new Uint8Array(index.parts.length);
      pool.add(index.terms);
    }
    emptyPool();
    var searcher = null;
    function refresh() {
      searcher = createSearcher(pool.entries, nameLang);
    }
    refresh();

    /* The parts of what the query needs (searcher.needs), in order. */
    function partsOf(need) {
      var parts = new Set(), t;
      if (need.tokens) {
        for (t = 0; t < need.tokens.length; t++) {
          if (!need.tokens[t]) continue;
          if (index.tokenPart[t]) parts.add(index.tokenPart[t] - 1);
          // A name's first letters match names only (markCandidates).
          if (!need.namesOnly && index.addressPart[t]) parts.add(index.addressPart[t] - 1);
        }
      }
      need.terms.forEach(function (term) { if (index.termPart[term]) parts.add(index.termPart[term] - 1); });
      if (need.phone && index.phonePart) parts.add(index.phonePart - 1);
      return Array.from(parts).sort(function (a, b) { return a - b; });
    }

    /* { needed, missing }: the parts a need names, and those not loaded yet; or null
       when every one is loaded. */
    function lacking(need) {
      var needed = partsOf(need);
      var missing = needed.filter(function (part) { return !loaded[part]; });
      return missing.length ? { needed: needed, missing: missing } : null;
    }

    /* The display parts of the entries ``numbers`` not loaded yet. */
    function undisplayed(numbers) {
      var parts = new Set();
      numbers.forEach(function (number) {
        var part = index.displayPart - 1 + Math.floor(number / index.displaySize);
        if (!shown[part]) parts.add(part);
      });
      return Array.from(parts).sort(function (a, b) { return a - b; });
    }

    function answer(rawQuery, limit, filters) {
      var lack = lacking(searcher.needs(rawQuery, filters, false));
      var result = searcher.search(rawQuery, limit, filters);
      // No entry holds every word: the closest matches need every word's parts.
      if (!lack && !result.total && result.query.indexOf(" ") >= 0) {
        lack = lacking(searcher.needs(rawQuery, filters, true));
      }
      var unshown = undisplayed(result.numbers);
      result.partial = lack !== null;
      result.needed = lack ? lack.needed : [];
      result.missing = lack || unshown.length ? (lack ? lack.missing : []).concat(unshown) : null;
      return result;
    }

    function fetchParts(parts) {
      return Promise.all(parts.map(function (part) {
        return loadPart(partUrl(index.parts[part])).then(function (block) {
          if (block.version !== index.version) throw new Error("search index part: of another build");
          return [part, block];
        });
      }));
    }

    /* Adds the parts fetched: display parts to what results show, the others to the
       pool (which prepares their new entries alone). */
    function add(pairs) {
      var added = false;
      pairs.forEach(function (pair) {
        if (pair[1].records === undefined) {
          if (!shown[pair[0]]) addDisplay(display, pair[1]);
          shown[pair[0]] = 1;
          return;
        }
        if (loaded[pair[0]]) return;
        loaded[pair[0]] = 1;
        // Prepared again only for new entries (a city's listings may all be here).
        if (pool.add(pair[1])) added = true;
      });
      if (added) refresh();
    }

    /* Loads what an answer lacked (its ``missing`` and ``needed``). When the pool would
       grow past its limit it starts again from the head with every part the answer
       needed. */
    function load(result) {
      return fetchParts(result.missing).then(function (pairs) {
        var size = pool.entries.count;
        pairs.forEach(function (pair) {
          if (pair[1].records !== undefined && !loaded[pair[0]]) size += decodeNumbers(pair[1].entries).length;
        });
        if (size <= (poolLimit || POOL_LIMIT)) return add(pairs);
        var fetched = new Set(result.missing);
        return fetchParts(result.needed.filter(function (part) { return !fetched.has(part); }))
          .then(function (others) {
            emptyPool();
            add(pairs.concat(others));
          });
      });
    }

    return { size: index.count, answer: answer, load: load };
  }

  /* The buffers of a prepared index's typed arrays, to transfer rather than copy. */
  function transferList(index) {
    var buffers = new Set();
    (function collect(value) {
      if (ArrayBuffer.isView(value)) buffers.add(value.buffer);
      else if (value && typeof value === "object" && !(typeof value[0] === "string")) {
        Object.keys(value).forEach(function (key) { collect(value[key]); });
      }
    })(index);
    return Array.from(buffers);
  }

  var TYPO_MIN_LENGTH = 4;

  // Latin typing of Arabic words (arabizi and common transliteration): both are reduced
  // to a skeleton of consonant classes, vowels and the letters that often stand for
  // them (ا و ي ء ع; a e i o u y w 2 3) dropped, doubled letters once.
  var ARABIC_CLASSES = {
    "\u0628": "b", "\u062a": "t", "\u062b": "t", "\u062c": "j", "\u062d": "h", "\u062e": "x",
    "\u062f": "d", "\u0630": "d", "\u0631": "r", "\u0632": "z", "\u0633": "s", "\u0634": "c",
    "\u0635": "s", "\u0636": "d", "\u0637": "t", "\u0638": "z", "\u063a": "g", "\u0641": "f",
    "\u0642": "k", "\u0643": "k", "\u0644": "l", "\u0645": "m", "\u0646": "n", "\u0647": "h"
  };
  var LATIN_DIGRAPHS = /kh|gh|ch|sh|th|dh|dj|[^kgcstd]|[kgcstd]/g;
  var LATIN_CLASSES = {
    kh: "x", gh: "g", ch: "c", sh: "c", th: "t", dh: "d", dj: "j", "5": "x", "7": "h", "8": "g",
    "9": "k", b: "b", p: "b", c: "k", d: "d", f: "f", v: "f", g: "k", h: "h", j: "j", k: "k",
    q: "k", l: "l", m: "m", n: "n", r: "r", s: "s", t: "t", x: "ks", z: "z"
  };
  var TRANSLIT_MIN_LENGTH = 3, ARABIC_LETTER = /[\u0621-\u064a]/;

  function onceEach(classes) {
    return classes.replace(/(.)\1+/g, "$1");
  }

  /* The skeleton of a normalised Arabic word, its prefix off; a final ه (a ta marbuta
     once normalised) is left out. */
  function arabicSkeleton(word) {
    var bare = withoutPrefix(word), classes = "";
    for (var i = 0; i < bare.length; i++) {
      if (i === bare.length - 1 && bare.charAt(i) === "\u0647" && i > 0) break;
      classes += ARABIC_CLASSES[bare.charAt(i)] || "";
    }
    return onceEach(classes);
  }

  /* The skeleton of a Latin word as typed for an Arabic one: mat3am, hanout. */
  function latinSkeleton(word) {
    return onceEach(word.replace(LATIN_DIGRAPHS, function (letters) {
      return LATIN_CLASSES[letters] || "";
    }));
  }

  /* A query word: the ranges of forms starting with it or its stem, and (four letters or
     more) the forms one edit away, or starting one edit away, that those do not hold.
     A word of a city's or category's own name (``proper``), typed with or without a
     prefix, is a proper name: it loses no suffix, so طنجة never finds الطنجية. */
  function compileWord(word, index, proper) {
    var bare = withoutPrefix(word), forms = index.forms;
    var isProper = proper.has(word) || proper.has(bare), stemmed = isProper ? bare : stem(word);
    var starts = [word];
    if (bare !== word) starts.push(bare);
    // Its broken plural or singular (فنادق, فندق), as it is typed.
    [word, bare].forEach(function (form) {
      if (Object.prototype.hasOwnProperty.call(index.plurals, form)) {
        index.plurals[form].forEach(function (other) {
          if (starts.indexOf(other) < 0) starts.push(other);
        });
      }
    });
    var ranges = starts.map(function (start) { return prefixRange(forms, start); });
    // What only the stem finds: never a city's or category's own name.
    var stemRange = stemmed !== bare ? prefixRange(forms, stemmed) : null;
    var typos = [];
    // A city's or category's name typed is no misspelling.
    if (word.length >= TYPO_MIN_LENGTH && !isProper) {
      var n = word.length;
      for (var i = 0; i < forms.length; i++) {
        var form = forms[i];
        if (form.length < n - 1) continue;
        if (form.startsWith(word) || form.startsWith(stemmed)) continue;
        var near = (form.length <= n + 1 &&
                    (withinOneEdit(word, form) || withinOneEdit(stemmed, form))) ||
          (form.length > n && (withinOneEdit(word, form.slice(0, n)) ||
                               withinOneEdit(word, form.slice(0, n + 1)) ||
                               withinOneEdit(word, form.slice(0, n - 1))));
        if (near) typos.push(i);
      }
    }
    return { word: word, ranges: ranges, stemRange: stemRange, typos: typos };
  }

  // Flags of a token, a term or a group for one query word; STEMMED: a form found by the
  // query word's stem alone (tokenFlags makes it EXACT but on a city's names).
  var EXACT = 1, TYPO = 2, STEMMED = 4;

  /* For each token, whether one of its forms starts with the query word (EXACT) or is
     one of its misspellings (TYPO). */
  function tokenFlags(index, compiled, flags, scratch) {
    var formFlags = scratch.forms.fill(0), wordFlags = scratch.words;
    var stemRange = compiled.stemRange, proper = scratch.proper, f;
    if (stemRange) formFlags.fill(STEMMED, stemRange[0], stemRange[1]);
    compiled.ranges.forEach(function (range) { formFlags.fill(EXACT, range[0], range[1]); });
    compiled.typos.forEach(function (form) { formFlags[form] |= TYPO; });
    for (var w = 0, words = index.words.length; w < words; w++) {
      // A proper name is found whole or by a prefix of it, not through a stem.
      f = proper[w] ? formFlags[index.wordForm[w]] & ~STEMMED
        : formFlags[index.wordForm[w]] | formFlags[index.stemForm[w]];
      wordFlags[w] = f & STEMMED ? (f & ~STEMMED) | EXACT : f;
    }
    // Arabic words typed in Latin letters rank as misspellings: after every exact match.
    compiled.translit.forEach(function (word) { wordFlags[word] |= TYPO; });
    flags.fill(0);
    var start = index.tokenWordStart, tokenWords = index.tokenWords;
    for (var t = 0; t < index.tokenCount; t++) {
      for (var k = start[t]; k < start[t + 1]; k++) flags[t] |= wordFlags[tokenWords[k]];
    }
    return flags;
  }

  function flagsOf(tokens, from, to, flags) {
    var found = 0;
    for (var at = from; at < to; at++) found |= flags[tokens[at]];
    return found;
  }

  // Where an entry holds a query word, from the best: in a name, in its category (names
  // or keywords), in its city's names, elsewhere in its address.
  var IN_NAME = 0, IN_CATEGORY = 1, IN_CITY = 2, IN_ADDRESS = 3;
  // Ranks: exact name, name prefix, then RANK_NAME + the sum of where each word was found
  // (every word in a name first; up to SPREAD), so that each word found in a better place
  // counts; a match that needs a misspelt word comes after every exact one, and news,
  // blog articles and pages after the directory's entries (but for an exact name).
  var RANK_EXACT = 0, RANK_PREFIX = 1, RANK_NAME = 2, SPREAD = 9;
  var RANK_TYPO = RANK_NAME + SPREAD + 1, RANK_CONTENT = 2 * RANK_TYPO, RANKS = 2 * RANK_CONTENT;
  var CONTENT_TYPE = 3;  // news, blog and page come after it in TYPES

  /* A searcher over a prepared index, or over the entries of /search-index.json. Each
     keystroke marks the entries holding a token that matches the query's longest word,
     then ranks them in name order, keeping the first ``limit`` of each rank. One
     character matches the start of a word of a name only: "every entry with an alef"
     helps nobody. ``nameLang`` ("fr", "en"; optional) is the language of the names the
     page shows (i18n.js's dalilNameLang): among entries of one rank, those whose name in
     it holds the query come first. */
  function createSearcher(data, nameLang) {
    var index = prepareIndex(data);
    var localName = nameLang === "en" ? NAME_EN : nameLang === "fr" ? NAME_FR : -1;
    // Buckets per rank: a match in the page's language's name, then the others.
    var PER_RANK = localName < 0 ? 1 : 2;
    var count = index.count, textStart = index.textStart, textTokens = index.textTokens;
    var display = index.display, number = index.number;
    var keywordTokens = new Map(index.keywords);
    var positions = new Map();
    index.terms.category.concat(index.terms.location).forEach(function (entry) {
      positions.set(TYPES[index.type[entry]] + "/" + slug(entry), entry);
    });
    // Reused by every keystroke: big arrays made anew each time keep the collector busy.
    var marks = new Uint8Array(count), bounds = new Uint8Array(count);
    var flagPool = [];
    var scratch = { forms: new Uint8Array(index.forms.length),
                    words: new Uint8Array(index.words.length),
                    proper: new Uint8Array(index.words.length) };
    var categoryCounts = new Int32Array(count), cityCounts = new Int32Array(count);
    var nameStart = index.nameStart, nameWords = index.nameWords;
    var headPool = new Uint8Array(index.words.length);
    // The words of the categories' and cities' names: typed, they lose no suffix
    // (compileWord). A city's are proper names: no other word's stem finds them
    // (tokenFlags); a category's name is a common noun, its singular finds it.
    var properWords = new Set();
    index.terms.category.concat(index.terms.location).forEach(function (entry) {
      var city = index.type[entry] === 2;
      for (var at = nameStart[entry * NAMES]; at < nameStart[entry * NAMES + NAMES]; at++) {
        properWords.add(index.words[nameWords[at]]);
        if (city) scratch.proper[nameWords[at]] = 1;
      }
    });
    var phones = null, phoneHits = new Uint8Array(count);  // phones: split on the first phone query
    var compiled = { query: null, q: null };

    /* Marks the entries whose phone holds the typed one, in marks and phoneHits. */
    function markPhones(typed) {
      if (!phones) phones = index.phones;
      phoneHits.fill(0);
      for (var e = 0; e < count; e++) {
        if (phones[e] && phoneMatches(phones[e], typed)) marks[e] = phoneHits[e] = 1;
      }
    }

    /* The flags of the tokens of an entry's fields [from, to). */
    function fieldFlags(entry, from, to, flags) {
      return flagsOf(textTokens, textStart[entry * FIELDS + from], textStart[entry * FIELDS + to], flags);
    }

    function text(entry, field) {
      var from = textStart[entry * FIELDS + field], to = textStart[entry * FIELDS + field + 1];
      var tokens = [];
      for (var at = from; at < to; at++) tokens.push(index.tokens[textTokens[at]]);
      return tokens.join(" ");
    }

    function slug(entry) {
      return display.slugs[number[entry]];
    }

    function fromPattern(pattern, entry) {
      return pattern.split(SLUG_FIELD).join(slug(entry));
    }

    function img(entry) {
      var exception = display.img.get(number[entry]);
      if (exception !== undefined) return exception;
      // 1: its type's pattern; 2 and more: one of the head's shared images.
      var code = index.img[entry];
      return code > 1 ? index.images[code - 2] : code ? fromPattern(index.imgPatterns[index.type[entry]], entry) : "";
    }

    function url(entry) {
      var exception = display.url.get(number[entry]);
      if (exception !== undefined) return exception;
      return fromPattern(index.urlPatterns[index.type[entry]], entry);
    }

    /* The entry as /search-index.json has it, for a result card (no coordinates), with
       its category's names in the other languages (c_en, c_fr), which its card shows
       on a page in one of them. Until its display part is loaded (an index in parts)
       it has no slug, url ("") or image. */
    function entryAt(entry) {
      var known = slug(entry) !== undefined, result = { t: TYPES[index.type[entry]] };
      if (known) result.s = slug(entry);
      result.n = text(entry, NAME);
      var optional = [["n_en", text(entry, NAME_EN)], ["n_fr", text(entry, NAME_FR)]];
      var category = index.category[entry], city = index.city[entry];
      if (category >= 0) {
        optional.push(["c", text(category, NAME)], ["c_en", text(category, NAME_EN)],
                      ["c_fr", text(category, NAME_FR)]);
      }
      optional.push(["a", text(entry, ADDRESS)], ["img", known ? img(entry) : ""]);
      if (category >= 0) optional.push(["cs", slug(category)]);
      if (city >= 0) optional.push(["ls", slug(city)]);
      optional.forEach(function (pair) { if (pair[1]) result[pair[0]] = pair[1]; });
      result.url = known ? url(entry) : "";
      return result;
    }

    var skeletons = null;  // made on the first Latin query word

    /* The Arabic words (positions in index.words) a Latin word may stand for: their
       skeleton is its own, or (three classes or more) starts with it. */
    function transliterated(word) {
      if (word.length < TRANSLIT_MIN_LENGTH || !LATIN_WORD.test(word) || !/[a-z]/.test(word)) return [];
      var key = latinSkeleton(word);
      if (key.length < 2) return [];
      if (!skeletons) {
        var pairs = [];
        index.words.forEach(function (arabic, at) {
          if (ARABIC_LETTER.test(arabic)) pairs.push([arabicSkeleton(arabic), at]);
        });
        pairs.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]; });
        skeletons = { keys: pairs.map(function (pair) { return pair[0]; }),
                      words: pairs.map(function (pair) { return pair[1]; }) };
      }
      var range = prefixRange(skeletons.keys, key), found = [], cities = [];
      for (var at = range[0]; at < range[1]; at++) {
        var whole = skeletons.keys[at] === key, word = skeletons.words[at];
        if (key.length >= 3 || whole) found.push(word);
        if (whole && scratch.proper[word]) cities.push(word);
      }
      // A city's name typed in Latin letters is that proper name only (tanja: طنجة,
      // not الطنجية).
      return cities.length ? cities : found;
    }

    /* A query word's flags for every token and every category and city. */
    function flagWord(compiled, at) {
      compiled.translit = transliterated(compiled.word);
      compiled.fuzzy = compiled.typos.length > 0 || compiled.translit.length > 0;
      if (!flagPool[at]) flagPool[at] = new Uint8Array(index.tokenCount);
      var flags = tokenFlags(index, compiled, flagPool[at], scratch);
      var term = new Map(), keywords = new Map();
      index.terms.category.forEach(function (entry) {
        var found = fieldFlags(entry, NAME, NAMES, flags);
        var tokens = keywordTokens.get(entry);
        var inKeywords = tokens ? flagsOf(tokens, 0, tokens.length, flags) : 0;
        term.set(entry, found | inKeywords);
        keywords.set(entry, inKeywords);
      });
      index.terms.location.forEach(function (entry) {  // its listings are in it: IN_CITY
        term.set(entry, fieldFlags(entry, NAME, NAMES, flags));
      });
      compiled.flags = flags;
      compiled.term = term;
      compiled.keywords = keywords;
      return compiled;
    }

    /* A name's words against a query's: 2 equal, 1 the name starts with it, 0 neither.
       ``ids`` are the query's word numbers (-1: no index word), ``last`` the range of
       words starting with its last word. */
    function compareName(slot, sequence) {
      var from = index.nameStart[slot], to = index.nameStart[slot + 1], words = index.nameWords;
      var ids = sequence.ids, m = ids.length;
      if (to - from < m) return 0;
      for (var i = 0; i < m - 1; i++) if (words[from + i] !== ids[i]) return 0;
      var last = words[from + m - 1];
      if (last === ids[m - 1]) return to - from === m ? 2 : 1;
      return last >= sequence.last[0] && last < sequence.last[1] ? 1 : 0;
    }

    function sequenceOf(queryWords) {
      return { ids: queryWords.map(function (word) {
        var at = lowerBound(index.words, word, 0);
        return index.words[at] === word ? at : -1;
      }), last: prefixRange(index.words, queryWords[queryWords.length - 1]) };
    }

    function compile(query) {
      var queryWords = query.split(" ");
      var words = queryWords.filter(function (word, at, list) {
        return list.indexOf(word) === at;
      }).map(function (word, at) { return flagWord(compileWord(word, index, properWords), at); });
      var article = ["\u0627\u0644" + queryWords[0]].concat(queryWords.slice(1));
      var q = { words: words, plain: sequenceOf(queryWords), article: sequenceOf(article),
                single: query.length === 1, heads: null };
      if (queryWords.length === 1) q.heads = headsOf(q);
      return q;
    }

    /* Where the entry holds the word with ``flag`` (EXACT or TYPO): IN_NAME,
       IN_CATEGORY, IN_CITY, IN_ADDRESS, or -1. A listing's city is found through the
       city's entry (its names), before the address's own words. */
    function where(entry, word, flag, single) {
      if (fieldFlags(entry, NAME, NAMES, word.flags) & flag) return IN_NAME;
      if (single) return -1;
      var category = index.category[entry];
      var inCategory = category >= 0 ? word.term.get(category) : word.keywords.get(entry);
      if (inCategory & flag) return IN_CATEGORY;
      var city = index.city[entry];
      if (city >= 0 && word.term.get(city) & flag) return IN_CITY;
      if (fieldFlags(entry, ADDRESS, FIELDS, word.flags) & flag) return IN_ADDRESS;
      return -1;
    }

    /* The rank of an entry for the compiled query, or -1 when a word does not match. */
    function rank(entry, q) {
      var places = 0, typo = false;
      for (var w = 0; w < q.words.length; w++) {
        var found = where(entry, q.words[w], EXACT, q.single);
        if (found < 0 && q.words[w].fuzzy) {
          found = where(entry, q.words[w], TYPO, q.single);
          if (found >= 0) typo = true;
        }
        if (found < 0) return -1;
        places += found;
      }
      var worst = RANK_NAME + Math.min(places, SPREAD);
      if (!typo && worst === RANK_NAME) {
        for (var n = 0; n < NAMES; n++) {
          var slot = entry * NAMES + n;
          var plain = compareName(slot, q.plain), article = compareName(slot, q.article);
          if (plain === 2 || article === 2) return RANK_EXACT;  // whatever the type
          if (plain || article) worst = RANK_PREFIX;
        }
      }
      if (typo) worst += RANK_TYPO;
      return index.type[entry] < CONTENT_TYPE ? worst : worst + RANK_CONTENT;
    }

    /* Marks the entries of a key of lists (createLists), segment by segment. */
    function markList(lists, key) {
      var start = lists.start, end = lists.end, next = lists.next, values = lists.values;
      for (var segment = lists.first[key]; segment; segment = next[segment]) {
        for (var at = start[segment]; at < end[segment]; at++) marks[values[at]] = 1;
      }
    }

    /* Marks the entries that may match the word: through a flagged token, or as a
       listing of a flagged category or city; ``adding`` keeps the marks already made. */
    function markCandidates(word, single, adding) {
      if (!adding) marks.fill(0);
      var postings = single ? [index.namePostings] : [index.namePostings, index.otherPostings];
      for (var t = 0; t < index.tokenCount; t++) {
        if (word.flags[t]) for (var p = 0; p < postings.length; p++) markList(postings[p], t);
      }
      if (single) return;
      word.term.forEach(function (flag, term) {
        if (flag) markList(index.members[index.type[term] === 1 ? "category" : "city"], term);
      });
    }

    /* Whether the filters keep a matching entry; ``count`` adds a listing to the facet
       counts (of the other filter's matches). */
    function keeps(entry, category, city, filtered, count) {
      if (index.type[entry] !== 0) return !filtered;
      var categoryOf = index.category[entry], cityOf = index.city[entry];
      var inCategory = category === -1 || categoryOf === category;
      var inCity = city === -1 || cityOf === city;
      if (count && inCity && categoryOf >= 0) categoryCounts[categoryOf]++;
      if (count && inCategory && cityOf >= 0) cityCounts[cityOf]++;
      return inCategory && inCity;
    }

    /* The first rank whose entries can no longer be shown: the buckets before it fill
       the page (an entry found later goes after the ones of its rank). */
    function unshownRank(buckets, limit) {
      for (var rank = 0, shown = 0; rank < buckets.length; rank++) {
        shown += buckets[rank].length;
        if (shown >= limit) return rank;
      }
      return buckets.length;
    }

    /* The bucket of an entry of rank ``score``: with a page language's name, its match
       there before the others of the rank (each query word in that name). */
    function bucketOf(score, entry, q) {
      if (PER_RANK === 1) return score;
      for (var w = 0; q && w < q.words.length; w++) {
        if (!(fieldFlags(entry, localName, localName + 1, q.words[w].flags) & (EXACT | TYPO))) {
          return score * PER_RANK + 1;
        }
      }
      return score * PER_RANK;
    }

    /* The best rank the entry's names allow: RANK_EXACT when one is the query,
       RANK_PREFIX when one starts with it, else RANK_NAME. */
    function nameBound(entry, q) {
      var bound = RANK_NAME, n, slot;
      if (q.heads) {  // one query word: only the first word of each name counts
        for (n = 0; n < NAMES; n++) {
          slot = entry * NAMES + n;
          var from = nameStart[slot], head = from < nameStart[slot + 1] ? q.heads[nameWords[from]] : 0;
          if (head === 2 && nameStart[slot + 1] - from === 1) return RANK_EXACT;
          if (head) bound = RANK_PREFIX;
        }
        return bound;
      }
      for (n = 0; n < NAMES; n++) {
        slot = entry * NAMES + n;
        var found = Math.max(compareName(slot, q.plain), compareName(slot, q.article));
        if (found === 2) return RANK_EXACT;
        if (found === 1) bound = RANK_PREFIX;
      }
      return bound;
    }

    /* For a query of one word, per index word: 2 when it is the query (or it with the
       article), 1 when it starts with it, else 0; what compareName finds of a name's
       first word. */
    function headsOf(q) {
      var heads = headPool.fill(0);
      [q.plain, q.article].forEach(function (sequence) {
        heads.fill(1, sequence.last[0], sequence.last[1]);
      });
      [q.plain, q.article].forEach(function (sequence) {
        if (sequence.ids[0] >= 0) heads[sequence.ids[0]] = 2;
      });
      return heads;
    }

    /* When no entry holds every word of a query of several, the entries that hold the
       most of them, each ranked by the words it holds, into ``buckets``; their count.
       The facets count them. */
    function closestMatches(q, category, city, filtered, buckets, limit) {
      marks.fill(0);
      q.words.forEach(function (word) { markCandidates(word, q.single, true); });
      var most = 1, kept = [];
      for (var k = 0; k < count; k++) {
        var entry = index.order[k];
        if (!marks[entry] || !keeps(entry, category, city, filtered, false)) continue;
        var held = 0, places = 0, typo = false;
        for (var w = 0; w < q.words.length; w++) {
          var found = where(entry, q.words[w], EXACT, q.single);
          if (found < 0 && q.words[w].fuzzy) {
            found = where(entry, q.words[w], TYPO, q.single);
            if (found >= 0) typo = true;
          }
          if (found < 0) continue;
          held++;
          places += found;
        }
        if (held < most) continue;
        if (held > most) {
          most = held;
          kept = [];
        }
        var worst = RANK_NAME + Math.min(places, SPREAD) + (typo ? RANK_TYPO : 0);
        kept.push(entry, index.type[entry] < CONTENT_TYPE ? worst : worst + RANK_CONTENT);
      }
      for (var at = 0; at < kept.length; at += 2) {
        keeps(kept[at], category, city, filtered, true);
        var bucket = buckets[bucketOf(kept[at + 1], kept[at], q)];
        if (bucket.length < limit) bucket.push(kept[at]);
      }
      return kept.length / 2;
    }

    function termIndex(type, slug) {
      if (!slug) return -1;
      var at = positions.get(type + "/" + slug);
      return at === undefined ? -2 : at;  // -2: a slug the index does not have
    }

    /* Results for a query and filters ({ category: slug, city: slug }, both optional):
       { query, total, items (at most limit entries), facets, ms }. With a filter only
       listings are results, and an empty query lists every listing it keeps. facets
       counts the matching listings per category (within the city filter) and per city
       (within the category filter). */
    function search(rawQuery, limit, filters) {
      var started = performance.now();
      var query = normalize(rawQuery);
      var category = termIndex("category", filters && filters.category);
      var city = termIndex("location", filters && filters.city);
      var filtered = category !== -1 || city !== -1;
      var facets = { category: {}, city: {} };
      if (!query && !filtered) {
        return { query: query, total: 0, items: [], numbers: [], facets: facets, closest: false,
                 ms: performance.now() - started };
      }
      var q = null, phone = phoneQuery(rawQuery);
      if (query) {
        q = compiledQuery(query);
        markCandidates(pivotOf(q), q.single);
        if (phone) markPhones(phone);
      } else {
        marks.fill(1);
      }
      var buckets = [];
      for (var b = 0; b < RANKS * PER_RANK; b++) buckets.push([]);
      var total = 0, cut = buckets.length;
      // Of one word, every marked entry matches (markCandidates marks what where()
      // finds): one pass in entry order counts them and notes the best rank their names
      // allow (1 + nameBound, 0: not kept), and the pass in name order ranks an entry only
      // while that rank could still be shown. Name order reads memory out of order: it
      // reads one byte per entry.
      var oneWord = q !== null && q.words.length === 1 && !phone;
      for (var e = 0; oneWord && e < count; e++) {
        bounds[e] = marks[e] && keeps(e, category, city, filtered, true) ? nameBound(e, q) + 1 : 0;
        if (bounds[e]) total++;
      }
      for (var k = 0; k < count && cut > 0; k++) {
        var entry = index.order[k];
        if (oneWord ? !bounds[entry] || (bounds[entry] - 1) * PER_RANK >= cut : !marks[entry]) continue;
        var isListing = index.type[entry] === 0;
        if (!q && !isListing) continue;
        var score = q ? rank(entry, q) : RANK_EXACT;
        // A phone holding the typed digits counts as a word of the name.
        if (phone && phoneHits[entry]) score = score < 0 ? RANK_NAME : Math.min(score, RANK_NAME);
        if (score < 0 || !keeps(entry, category, city, filtered, !oneWord)) continue;
        if (!oneWord) total++;
        var slot = bucketOf(score, entry, q);
        if (slot >= cut || buckets[slot].length >= limit) continue;
        buckets[slot].push(entry);
        if (oneWord) cut = unshownRank(buckets, limit);
      }
      // Nothing holds every word: the entries that hold the most, said so (closest).
      var closest = false;
      if (q !== null && total === 0 && q.words.length > 1) {
        total = closestMatches(q, category, city, filtered, buckets, limit);
        closest = total > 0;
      }
      // Of no query, a facet the other filter leaves whole counts all the listings of
      // each term: its totals (an index in parts has not loaded them all).
      var categoryTotals = !query && city === -1, cityTotals = !query && category === -1;
      index.terms.category.forEach(function (term) {
        var listings = categoryTotals ? index.termListings[term] : categoryCounts[term];
        if (listings) facets.category[slug(term)] = listings;
        categoryCounts[term] = 0;
      });
      index.terms.location.forEach(function (term) {
        var listings = cityTotals ? index.termListings[term] : cityCounts[term];
        if (listings) facets.city[slug(term)] = listings;
        cityCounts[term] = 0;
      });
      var items = [], numbers = [];
      for (b = 0; b < buckets.length && items.length < limit; b++) {
        var bucket = buckets[b];
        for (var j = 0; j < bucket.length && items.length < limit; j++) {
          items.push(entryAt(bucket[j]));
          numbers.push(number[bucket[j]]);
        }
      }
      return { query: query, total: total, items: items, numbers: numbers, facets: facets,
               closest: closest, ms: performance.now() - started };
    }

    /* The broken plurals of a prepared index ([plural, singular] pairs), for a searcher
       given /search-index.json, which has none. */
    function setPlurals(pairs) {
      index.plurals = pluralForms(pairs);
    }

    /* The compiled query, kept for the next call with the same query (needs, then
       search): its flags are rewritten only by another query. */
    function compiledQuery(query) {
      if (compiled.query !== query) compiled = { query: query, q: compile(query) };
      return compiled.q;
    }

    /* The word with the fewest candidates: likely the longest one. */
    function pivotOf(q) {
      return q.words.reduce(function (a, b) { return b.word.length > a.word.length ? b : a; });
    }

    /* What may hold a query's matches: the tokens its pivot word (or, ``allWords``,
       any word) matches (a flag per token, or null; ``namesOnly``: in names alone, for
       a query of one letter), the categories and cities whose
       listings it finds through their names or keywords (markCandidates), or those the
       filters list when there is no query, and whether it may be a phone. */
    function needs(rawQuery, filters, allWords) {
      var query = normalize(rawQuery);
      var need = { tokens: null, namesOnly: false, terms: [], phone: false };
      var category = termIndex("category", filters && filters.category);
      var city = termIndex("location", filters && filters.city);
      if (!query) {
        // Every listing the filters keep, and each facet's counts within the other filter:
        // the filters' parts.
        if (category >= 0) need.terms.push(category);
        if (city >= 0) need.terms.push(city);
        return need;
      }
      var q = compiledQuery(query), tokens = new Uint8Array(index.tokenCount);
      (allWords ? q.words : [pivotOf(q)]).forEach(function (word) {
        for (var t = 0; t < index.tokenCount; t++) if (word.flags[t]) tokens[t] = 1;
        if (q.single) return;  // a name's first letter: no category or city (markCandidates)
        word.term.forEach(function (flag, term) {
          if (flag && need.terms.indexOf(term) < 0) need.terms.push(term);
        });
      });
      need.tokens = tokens;
      need.namesOnly = q.single;
      need.phone = phoneQuery(rawQuery) !== null;
      return need;
    }

    return { search: search, needs: needs, size: count, setPlurals: setPlurals };
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
    // Its name in the page's language where it has one (i18n.js), then its others, each
    // once: n_fr is often n_en ("Casablanca").
    var shown = dalilName(entry);
    body.appendChild(dalilShowName(element(headingTag || "span", "result-name"), shown));
    dalilOtherNames(entry, shown).forEach(function (other) {
      var alt = element("span", "result-alt", other.text);
      alt.lang = other.lang;
      alt.dir = other.dir;
      body.appendChild(alt);
    });
    var meta = element("span", "result-meta");
    meta.appendChild(element("span", "result-type type-" + entry.t, TYPE_LABELS[entry.t] || entry.t));
    // A category's name and an address keep their own direction, set apart from each other.
    if (entry.c) {
      meta.appendChild(dalilShowName(element("span", "result-category"),
                                     dalilName({ n: entry.c, n_en: entry.c_en, n_fr: entry.c_fr })));
    }
    if (entry.a) meta.appendChild(dalilShowName(element("span", "result-address"), dalilContentText(entry.a)));
    body.appendChild(meta);
    link.appendChild(body);
    return link;
  }

  // The search worker loads this file too: it has no window, and never builds cards.
  (typeof window !== "undefined" ? window : self).DalilSearch = {
    normalize: normalize,
    stem: stem,
    isPhone: function (text) { return phoneQuery(text) !== null; },
    loadIndex: loadIndex,
    prepareIndex: prepareIndex,
    openIndex: openIndex,
    transferList: transferList,
    createSearcher: createSearcher,
    card: card,
    join: join,
    typeLabel: function (type) { return TYPE_LABELS[type] || type; }
  };
})();
