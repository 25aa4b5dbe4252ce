// Registers the service worker; says when a newer build of the site has taken over.
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !('serviceWorker' in navigator) || !window.isSecureContext) {
    return;
  }
  var workers = navigator.serviceWorker;

  // A live region that exists before it is filled, so screen readers announce it.
  var banner = document.createElement('div');
  banner.className = 'update-banner';
  banner.setAttribute('role', 'status');
  document.body.appendChild(banner);

  function showUpdate() {
    if (banner.firstChild) {
      return;
    }
    var text = document.createElement('p');
    text.textContent = dalilText('A newer version of the site is available.');
    var reload = document.createElement('button');
    reload.type = 'button';
    reload.textContent = dalilText('Reload the page');
    reload.addEventListener('click', function () {
      window.location.reload();
    });
    var later = document.createElement('button');
    later.type = 'button';
    later.className = 'secondary';
    later.textContent = dalilText('Later');
    later.addEventListener('click', function () {
      banner.textContent = '';
    });
    banner.append(text, reload, later);
  }

  workers.addEventListener('message', function (event) {
    var data = event.data || {};
    // "took-over": a newer build's worker activated after this page began to load.
    if (data.type === 'dalil:updated' ||
        (data.type === 'dalil:took-over' && data.at >= performance.timeOrigin)) {
      showUpdate();
    }
  });
  // A newer worker claimed this page, which an older one had served.
  var servedByWorker = Boolean(workers.controller);
  workers.addEventListener('controllerchange', function () {
    if (servedByWorker) {
      showUpdate();
    }
  });
  // Messages sent while this page loaded were queued; deliver them now.
  workers.startMessages();
  workers.register(script.dataset.sw, { scope: script.dataset.scope }).then(function () {
    if (workers.controller) {
      workers.controller.postMessage({ type: 'dalil:hello' });
    }
  }).catch(function (error) {
    console.warn('dalil: the service worker was not registered:', error);
  });

  // The offline page lists the pages this device keeps.
  var list = document.getElementById('offline-pages');
  if (!list || !window.caches) {
    return;
  }
  var scope = new URL(script.dataset.scope, window.location.href);
  var cacheName = 'dalil:' + scope.pathname + ':pages';

  function titleOf(response) {
    return response.text().then(function (html) {
      var page = new DOMParser().parseFromString(html, 'text/html');
      var title = (page.title || '').trim();
      // "Listing · Category · Site": the site's name says nothing here.
      return title.replace(/\s·\s[^·]+$/, '') || title;
    });
  }

  caches.open(cacheName).then(function (cache) {
    return cache.keys().then(function (requests) {
      var pages = requests.filter(function (request) {
        return new URL(request.url).pathname.slice(-1) === '/';
      }).reverse().slice(0, 50);
      return Promise.all(pages.map(function (request) {
        return cache.match(request).then(titleOf).then(function (title) {
          return { url: request.url, title: title };
        });
      }));
    });
  }).then(function (pages) {
    pages.forEach(function (page) {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = page.url;
      link.textContent = page.title || decodeURI(new URL(page.url).pathname);
      item.appendChild(link);
      list.appendChild(item);
    });
    var section = list.closest('section');
    if (section && pages.length) {
      section.hidden = false;
    }
  }).catch(function () {
    // Nothing kept, or storage unavailable: the section stays hidden.
  });
})();
