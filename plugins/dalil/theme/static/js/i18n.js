// Interface text for the scripts: the build's messages script, deferred before this one
// (so it has run), sets window.dalilMessages: the translations of the scripts' catalog
// (plural forms by CLDR category); a message without one is shown as written.
(function () {
  'use strict';
  var messages = window.dalilMessages || {};
  var lang = document.documentElement.lang || 'ar';
  var plurals = new Intl.PluralRules(lang);
  // Western digits in every language, as the pages write them.
  var numbers = new Intl.NumberFormat(lang, { numberingSystem: 'latn' });

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      if (!values || !(name in values)) {
        return whole;
      }
      return typeof values[name] === 'number' ? numbers.format(values[name]) : String(values[name]);
    });
  }

  window.dalilText = function (text, values) {
    var translated = messages[text];
    return fill(typeof translated === 'string' && translated ? translated : text, values);
  };

  // The language the content's titles are written in: the page's, unless it says another.
  var contentLang = document.documentElement.getAttribute('data-content-lang') || lang;

  // The language of the names the page shows first (dalilName): "" when the Titles.
  window.dalilNameLang = contentLang !== lang ? lang : '';

  /* A language's writing direction, from CLDR through Intl; "auto" where unknown. */
  function direction(language) {
    try {
      var locale = new Intl.Locale(language);
      var info = locale.getTextInfo ? locale.getTextInfo() : locale.textInfo;
      if (info && info.direction) return info.direction;
    } catch (error) {}
    return 'auto';
  }

  /* The name a page shows of a search-index entry (a listing, category or city): its
     name in the page's language (n_fr, n_en) where it has one, else its Title (n), in
     the content's language. { text, lang }. */
  window.dalilName = function (entry) {
    var own = window.dalilNameLang && entry['n_' + lang];
    return own ? { text: own, lang: lang } : { text: entry.n, lang: contentLang };
  };

  /* The entry's other names, each once, that the page does not show as ``shown`` (a
     dalilName): its Title, then its English and French names. [{ text, lang, dir }] */
  window.dalilOtherNames = function (entry, shown) {
    var texts = [shown.text], names = [];
    [['n', contentLang], ['n_en', 'en'], ['n_fr', 'fr']].forEach(function (pair) {
      var text = entry[pair[0]];
      if (text && texts.indexOf(text) === -1) {
        texts.push(text);
        names.push({ text: text, lang: pair[1], dir: direction(pair[1]) });
      }
    });
    return names;
  };

  /* ``node`` showing ``name`` (a dalilName, or content text as { text, lang }): as text,
     set apart with its own direction, and in its language where it is not the page's. */
  window.dalilShowName = function (node, name) {
    node.textContent = name.text;
    node.dir = 'auto';
    if (name.lang !== lang) node.lang = name.lang;
    return node;
  };

  /* Content text (an address), in the content's language: for dalilShowName. */
  window.dalilContentText = function (text) {
    return { text: text, lang: contentLang };
  };

  window.dalilPlural = function (singular, plural, count, values) {
    var forms = messages[singular];
    var text = forms && typeof forms === 'object'
      ? forms[plurals.select(count)] || forms.other
      : (count === 1 ? singular : plural);
    return fill(text, Object.assign({ num: count }, values));
  };
}());
