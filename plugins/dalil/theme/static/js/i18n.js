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

  window.dalilPlural = function (singular, plural, count, values) {
    var forms = messages[singular];
    var text = forms && typeof forms === 'object'
      ? forms[plurals.select(count)] || forms.other
      : (count === 1 ? singular : plural);
    return fill(text, Object.assign({ num: count }, values));
  };
}());
