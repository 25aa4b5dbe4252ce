/* Dalil search worker: fetches, parses and prepares the search index off the page's
   thread, then answers queries. Only the latest query waiting is answered: typing
   faster than the search never queues work. */
"use strict";
importScripts("search-core.js");

var searcher = null;
var waiting = null;
var scheduled = false;

/* Answers after the messages already queued: a query typed meanwhile replaces it. */
function schedule() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(answer, 0);
}

function answer() {
  scheduled = false;
  if (!waiting) return;
  var message = waiting;
  waiting = null;
  var result = searcher.search(message.query, message.limit, message.filters);
  self.postMessage({ type: "results", id: message.id, result: result });
}

self.onmessage = function (event) {
  var message = event.data;
  if (message.type === "load") {
    self.DalilSearch.loadIndex(message.url).then(function (entries) {
      searcher = self.DalilSearch.createSearcher(entries);
      self.postMessage({ type: "ready", size: searcher.size });
      schedule();
    }).catch(function (error) {
      self.postMessage({ type: "error", message: String(error) });
    });
  } else if (message.type === "search") {
    waiting = message;
    if (searcher) schedule();
  }
};
