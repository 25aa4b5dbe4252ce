// "Near me": on the button's click only, ask for the visitor's position and list the
// listings of the search index (of one category or city, if the section names one) by
// great-circle distance; listings without coordinates follow. The position stays here.
(function () {
  'use strict';
  var EARTH_KM = 6371.0088;

  function radians(degrees) { return degrees * Math.PI / 180; }

  // Haversine distance in kilometres between two [latitude, longitude] points.
  function distance(a, b) {
    var dLat = radians(b[0] - a[0]);
    var dLon = radians(b[1] - a[1]);
    var h = Math.pow(Math.sin(dLat / 2), 2) +
      Math.cos(radians(a[0])) * Math.cos(radians(b[0])) * Math.pow(Math.sin(dLon / 2), 2);
    return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  function label(km) {
    if (km < 1) return dalilText('%(n)s m', { n: Math.max(10, Math.round(km * 100) * 10) });
    return dalilText('%(n)s km', { n: km < 10 ? Math.round(km * 10) / 10 : Math.round(km) });
  }

  // By slug: names can repeat, and an address may end with another city's name.
  function belongs(data, entry) {
    if (entry.t !== 'listing') return false;
    if (data.category && entry.cs !== data.category) return false;
    if (data.city && entry.ls !== data.city) return false;
    return true;
  }

  function setup(section) {
    var data = section.dataset;
    var button = section.querySelector('.near-me-button');
    var status = section.querySelector('.near-me-status');
    var list = section.querySelector('.near-me-results');
    var more = section.querySelector('.near-me-more');
    var limit = Number(data.limit) || 20;
    var ordered = [];
    var shown = 0;

    function render() {
      ordered.slice(shown, shown + limit).forEach(function (item) {
        var li = document.createElement('li');
        var link = document.createElement('a');
        link.href = data.base + item.entry.url;
        // In the page's language where it has it; its own direction on a page of the other.
        li.appendChild(dalilShowName(link, dalilName(item.entry)));
        if (item.km !== null) {
          var span = document.createElement('span');
          span.className = 'distance';
          span.textContent = ' · ' + label(item.km);
          li.appendChild(span);
        }
        if (item.entry.a) {
          var where = document.createElement('p');
          where.className = 'meta';
          li.appendChild(dalilShowName(where, dalilContentText(item.entry.a)));
        }
        list.appendChild(li);
      });
      shown = Math.min(ordered.length, shown + limit);
      more.hidden = shown >= ordered.length;
    }

    function show(position) {
      var here = [position.coords.latitude, position.coords.longitude];
      fetch(data.index, { credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error(response.status);
          return response.json();
        })
        .then(function (entries) {
          var listings = entries.filter(function (entry) { return belongs(data, entry); });
          var placed = listings.filter(function (entry) { return entry.ll; })
            .map(function (entry) { return { entry: entry, km: distance(here, entry.ll) }; })
            .sort(function (a, b) { return a.km - b.km; });
          var unplaced = listings.filter(function (entry) { return !entry.ll; })
            .map(function (entry) { return { entry: entry, km: null }; });
          ordered = placed.concat(unplaced);
          list.textContent = '';
          shown = 0;
          render();
          list.hidden = false;
          status.textContent = dalilText('Listings sorted nearest first (%(count)s).', { count: ordered.length });
        })
        .catch(function () { status.textContent = dalilText('The list of listings could not be loaded. Try again in a moment.'); })
        .then(function () { button.disabled = false; });
    }

    button.addEventListener('click', function () {
      if (!navigator.geolocation) {
        status.textContent = dalilText('Your browser cannot tell your location.');
        return;
      }
      button.disabled = true;
      status.textContent = dalilText('Finding your location…');
      navigator.geolocation.getCurrentPosition(show, function (error) {
        status.textContent = error.code === error.PERMISSION_DENIED
          ? dalilText('Your location was not shared, so listings cannot be sorted by distance. Allow this site to know your location in the browser’s settings, then try again.')
          : dalilText('Your location could not be found just now. Try again in a moment.');
        button.disabled = false;
      }, { maximumAge: 60000, timeout: 20000 });
    });
    more.addEventListener('click', render);
    button.hidden = false;
  }

  document.querySelectorAll('.near-me[data-index]').forEach(setup);
})();
