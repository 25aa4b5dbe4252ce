// The saved page (/saved/, /saved/?ids=a,b) and the compare page (/compare/).
// Listings come from the search index; the compare page reads each listing's
// phone, website and address from its page's schema.org JSON-LD.
(function () {
  'use strict';
  var app = document.getElementById('saved-app');
  var saved = window.dalilSaved;
  if (!app || !saved) {
    return;
  }
  var base = app.dataset.base;
  var status = document.getElementById('saved-status');
  var heading = document.querySelector('h1');
  var MAX_COMPARE = 4;
  var terms = new Map();  // "category/{slug}", "location/{slug}" -> the index's entry

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text) {
      node.textContent = text;
    }
    return node;
  }

  function say(message) {
    status.textContent = message;
  }

  function sitePath(path) {
    return path && path.charAt(0) === '/' ? base + path : '';
  }

  function sharedSlugs() {
    var ids = new URLSearchParams(window.location.search).get('ids');
    return ids === null ? null : saved.clean(ids.split(','));
  }

  function loadIndex() {
    return fetch(app.dataset.index).then(function (response) {
      if (!response.ok) {
        throw new Error('search index: HTTP ' + response.status);
      }
      return response.json();
    }).then(function (entries) {
      var listings = {};
      entries.forEach(function (entry) {
        if (entry.t === 'listing') {
          listings[entry.s] = entry;
        } else if (entry.t === 'category' || entry.t === 'location') {
          terms.set(entry.t + '/' + entry.s, entry);
        }
      });
      return listings;
    });
  }

  /* A listing's category's name as the page shows it (dalilName), or null. */
  function categoryName(entry) {
    var term = terms.get('category/' + entry.cs);
    return term ? dalilName(term) : entry.c ? dalilContentText(entry.c) : null;
  }

  /* A listing's city's name as the page shows it (dalilName), or null. */
  function cityName(entry) {
    var term = terms.get('location/' + entry.ls);
    return term ? dalilName(term) : null;
  }

  /* An element showing a name (or content text) in its language and direction. */
  function nameElement(tag, attributes, name) {
    return dalilShowName(element(tag, attributes), name);
  }

  // -- /saved/ -----------------------------------------------------------

  function savedView(listings) {
    var list = document.getElementById('saved-list');
    var shared = document.getElementById('saved-shared');
    var actions = document.getElementById('saved-actions');
    var compare = document.getElementById('saved-compare');
    var shareLink = document.getElementById('saved-share-link');
    var copy = document.getElementById('saved-copy');
    var sharing = sharedSlugs();

    function item(slug, removable) {
      var entry = listings[slug];
      var li = element('li', { 'class': 'saved-item', 'data-slug': slug });
      var body = element('div');
      if (entry) {
        var image = entry.img && /^https:\/\//.test(entry.img) ? entry.img : sitePath(entry.img);
        if (image) {
          li.appendChild(element('img', { src: image, alt: '', width: '96', height: '60', loading: 'lazy' }));
        }
        var title = element('h2');
        // Names (in the page's language where they have one) and the address keep their
        // own direction, each set apart (dir="auto").
        title.appendChild(nameElement('a', { href: sitePath(entry.url) }, dalilName(entry)));
        body.appendChild(title);
        var parts = [categoryName(entry), entry.a && dalilContentText(entry.a)].filter(Boolean);
        if (parts.length) {
          var meta = element('p', { 'class': 'meta' });
          parts.forEach(function (part, index) {
            if (index) meta.appendChild(document.createTextNode(' · '));
            meta.appendChild(nameElement('span', {}, part));
          });
          body.appendChild(meta);
        }
      } else {
        body.appendChild(element('h2', {}, dalilText('A listing no longer in the directory')));
        body.appendChild(element('p', { 'class': 'meta', dir: 'ltr' }, slug));
      }
      li.appendChild(body);
      if (removable) {
        var remove = element('button', { type: 'button', 'class': 'secondary', 'data-remove': slug }, dalilText('Remove'));
        var name = entry && dalilName(entry);
        remove.appendChild(name
          ? nameElement('span', { 'class': 'visually-hidden' }, { text: ' ' + name.text, lang: name.lang })
          : element('span', { 'class': 'visually-hidden', dir: 'auto' }, ' ' + slug));
        li.appendChild(remove);
      }
      return li;
    }

    function render() {
      var slugs = sharing || saved.list();
      list.textContent = '';
      slugs.forEach(function (slug) {
        list.appendChild(item(slug, !sharing));
      });
      shared.hidden = !sharing;
      actions.hidden = Boolean(sharing) || slugs.length === 0;
      if (sharing) {
        say(sharing.length ? dalilText('Listings in the shared link: %(num)s.', { num: sharing.length }) : dalilText('The shared link holds no listing.'));
        return;
      }
      if (!slugs.length) {
        say(dalilText('No saved listings yet. Press the “Save” button on any listing’s page or card.'));
        return;
      }
      say(dalilText('Saved listings: %(num)s.', { num: slugs.length }));
      var link = new URL(app.dataset.saved, window.location.href);
      link.search = '?ids=' + slugs.join(',');
      shareLink.value = link.href;
      compare.hidden = slugs.length < 2;
    }

    list.addEventListener('click', function (event) {
      var button = event.target.closest('button[data-remove]');
      if (!button) {
        return;
      }
      var next = button.closest('li').nextElementSibling || button.closest('li').previousElementSibling;
      var nextSlug = next && next.dataset.slug;
      saved.remove(button.dataset.remove);
      var target = nextSlug && list.querySelector('li[data-slug="' + nextSlug + '"] button');
      (target || heading).focus();
    });
    document.getElementById('saved-import').addEventListener('click', function () {
      saved.add(sharing);
      sharing = null;
      window.history.replaceState(null, '', app.dataset.saved);
      render();
      heading.focus();
    });
    copy.addEventListener('click', function () {
      shareLink.select();
      if (navigator.clipboard) {
        navigator.clipboard.writeText(shareLink.value).then(function () {
          say(dalilText('The list’s link was copied.'));
        }, function () {
          say(dalilText('Select the link and copy it.'));
        });
      }
    });
    saved.onChange(render);
    render();
  }

  // -- /compare/ ---------------------------------------------------------

  function jsonLd(html) {
    var page = new DOMParser().parseFromString(html, 'text/html');
    var block = page.querySelector('script[type="application/ld+json"]');
    return block ? JSON.parse(block.textContent) : {};
  }

  function webAddress(value) {
    try {
      var url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
    } catch (error) {
      return '';
    }
  }

  function compareView(listings) {
    var options = document.getElementById('compare-options');
    var choices = document.getElementById('compare-choices');
    var region = document.getElementById('compare-region');
    var table = document.getElementById('compare-table');
    var details = {};
    var sharing = sharedSlugs();
    var slugs = (sharing || saved.list()).filter(function (slug) { return listings[slug]; });
    var chosen = slugs.slice(0, MAX_COMPARE);

    function fetchDetails(slug) {
      if (!details[slug]) {
        details[slug] = fetch(sitePath(listings[slug].url)).then(function (response) {
          if (!response.ok) {
            throw new Error('HTTP ' + response.status);
          }
          return response.text();
        }).then(jsonLd).catch(function () {
          return null;
        });
      }
      return details[slug];
    }

    function cell(row, value, href, ltr) {
      var td = element('td');
      if (value === null) {
        td.appendChild(element('span', { 'class': 'meta' }, dalilText('Not available now')));
      } else if (!value) {
        td.appendChild(element('span', { 'class': 'meta' }, '—'));
      } else if (typeof value === 'object') {
        td.appendChild(nameElement('span', {}, value));
      } else if (href) {
        td.appendChild(element('a', { href: href, dir: ltr ? 'ltr' : 'auto' }, value));
      } else {
        td.textContent = value;
        td.dir = 'auto';
      }
      row.appendChild(td);
    }

    function renderTable(selection, data) {
      var head = table.tHead || table.createTHead();
      var body = table.tBodies[0] || table.createTBody();
      head.textContent = '';
      body.textContent = '';
      var top = head.insertRow();
      top.appendChild(element('td'));
      selection.forEach(function (slug) {
        var th = element('th', { scope: 'col' });
        th.appendChild(nameElement('a', { href: sitePath(listings[slug].url) }, dalilName(listings[slug])));
        top.appendChild(th);
      });
      var rows = [
        [dalilText('Category'), function (slug) { return [categoryName(listings[slug]) || '']; }],
        [dalilText('City'), function (slug) { return [cityName(listings[slug]) || '']; }],
        [dalilText('Phone'), function (slug, ld) {
          var phone = ld && (ld.telephone || '');
          return [phone, phone && 'tel:' + phone.replace(/[^0-9+]/g, ''), true];
        }],
        [dalilText('Website'), function (slug, ld) {
          // Shown as written: URL's href would add a trailing slash.
          var site = ld && webAddress(ld.sameAs || '');
          return [site && ld.sameAs, site, true];
        }],
        [dalilText('Address'), function (slug, ld) {
          if (!ld) {
            return [listings[slug].a || null];
          }
          var address = ld.address || {};
          var locality = [address.postalCode, address.addressLocality].filter(Boolean).join(' ');
          return [[address.streetAddress, locality, address.addressCountry].filter(Boolean).join(dalilText(', '))];
        }]
      ];
      rows.forEach(function (spec) {
        var row = body.insertRow();
        row.appendChild(element('th', { scope: 'row' }, spec[0]));
        selection.forEach(function (slug, index) {
          cell.apply(null, [row].concat(spec[1](slug, data[index])));
        });
      });
    }

    function update() {
      var selection = chosen.slice();
      Array.prototype.forEach.call(options.querySelectorAll('input'), function (box) {
        box.disabled = !box.checked && chosen.length >= MAX_COMPARE;
      });
      if (selection.length < 2) {
        region.hidden = true;
        say(slugs.length < 2 ? dalilText('Save at least two listings to compare them.') : dalilText('Choose at least two listings.'));
        return;
      }
      say(dalilText('Loading the comparison…'));
      Promise.all(selection.map(fetchDetails)).then(function (data) {
        if (selection.join() !== chosen.join()) {
          return;  // the choice changed while loading
        }
        renderTable(selection, data);
        region.hidden = false;
        say(dalilText('Listings shown side by side: %(num)s.', { num: selection.length }));
      });
    }

    slugs.forEach(function (slug, index) {
      var id = 'compare-' + slug;
      var li = element('li');
      var box = element('input', { type: 'checkbox', id: id, value: slug });
      box.checked = chosen.indexOf(slug) !== -1;
      box.addEventListener('change', function () {
        chosen = slugs.filter(function (item) {
          return item === slug ? box.checked : chosen.indexOf(item) !== -1;
        });
        update();
      });
      li.append(box, nameElement('label', { 'for': id }, dalilName(listings[slug])));
      options.appendChild(li);
    });
    choices.hidden = slugs.length < 2;
    update();
  }

  app.hidden = false;
  if (!saved.available) {
    say(dalilText('Your browser does not allow saving data on this device, so saved listings cannot be shown.'));
    return;
  }
  say(dalilText('Loading…'));
  loadIndex().then(function (listings) {
    (app.dataset.view === 'compare' ? compareView : savedView)(listings);
  }).catch(function () {
    say(dalilText('The directory’s data could not be loaded. Check the connection, then try again.'));
  });
})();
