// Saved listings: kept in this browser (localStorage) as a list of listing slugs.
// Save buttons are in the HTML, hidden; they are shown only when saving can work.
(function () {
  'use strict';
  var KEY = 'dalil:saved';
  var SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  var storage = null;
  try {
    storage = window.localStorage;
    storage.getItem(KEY);
  } catch (error) {
    storage = null;  // blocked (privacy settings): saving is not offered
  }

  function clean(slugs) {
    var seen = {};
    return (Array.isArray(slugs) ? slugs : []).filter(function (slug) {
      var keep = typeof slug === 'string' && SLUG.test(slug) && !seen[slug];
      seen[slug] = true;
      return keep;
    });
  }

  function list() {
    if (!storage) {
      return [];
    }
    try {
      return clean(JSON.parse(storage.getItem(KEY) || '[]'));
    } catch (error) {
      return [];
    }
  }

  var listeners = [];

  function store(slugs) {
    if (!storage) {
      return;
    }
    try {
      storage.setItem(KEY, JSON.stringify(clean(slugs)));
    } catch (error) {
      return;  // storage full: nothing changes
    }
    listeners.forEach(function (listener) { listener(); });
  }

  var saved = {
    available: Boolean(storage),
    isSlug: function (slug) { return SLUG.test(slug); },
    clean: clean,
    list: list,
    has: function (slug) { return list().indexOf(slug) !== -1; },
    add: function (slugs) { store(list().concat(slugs)); },
    remove: function (slug) {
      store(list().filter(function (item) { return item !== slug; }));
    },
    onChange: function (listener) { listeners.push(listener); }
  };
  window.dalilSaved = saved;
  if (!storage) {
    return;
  }

  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-save]'));

  function sync() {
    var current = list();
    buttons.forEach(function (button) {
      var on = current.indexOf(button.dataset.save) !== -1;
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
    });
  }

  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      var slug = button.dataset.save;
      if (saved.has(slug)) {
        saved.remove(slug);
      } else {
        saved.add([slug]);
      }
    });
    button.hidden = false;
  });
  saved.onChange(sync);
  // Another tab saved or removed something.
  window.addEventListener('storage', function (event) {
    if (event.key === KEY || event.key === null) {
      listeners.forEach(function (listener) { listener(); });
    }
  });
  sync();
})();
