/* Dalil search worker: fetches, parses and prepares the search index off the page's
   thread, then hands the prepared index over to the page (its typed arrays transferred,
   not copied) and ends. The page searches it on each keystroke without a round trip
   to another thread. */
"use strict";
importScripts("search-core.js");

self.onmessage = function (event) {
  var message = event.data;
  if (message.type !== "load") return;
  self.DalilSearch.loadIndex(message.url).then(function (data) {
    var index = self.DalilSearch.prepareIndex(data);
    self.postMessage({ type: "index", index: index }, self.DalilSearch.transferList(index));
    self.close();
  }).catch(function (error) {
    self.postMessage({ type: "error", message: String(error) });
  });
};
