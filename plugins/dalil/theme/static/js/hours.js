// "Open now, closes at …" / "closed, opens … at …" on a listing page, in the site's time
// zone (not the visitor's), and today's row of the week table marked; kept current.
(function () {
  'use strict';
  var DAY = 1440;
  var WEEK = 7 * DAY;
  var WEEKDAYS = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

  // Minutes since Monday 00:00 in `timeZone`: from the build's UTC offsets while they
  // cover `date`, else from the browser's zone data. The offsets are
  // "start:minutes;step:minutes;…;step:" in minutes since the epoch, each start after the
  // first as the minutes since the one before, the last one the end of the window.
  function weekMinute(date, timeZone, offsets) {
    var time = date.getTime();
    var minute = time / 60000;
    var spans = (offsets || '').split(';').map(function (item) { return item.split(':'); });
    var start = 0;
    for (var i = 0; i + 1 < spans.length; i++) {
      start += Number(spans[i][0]);
      if (start <= minute && minute < start + Number(spans[i + 1][0])) {
        var local = new Date(time + Number(spans[i][1]) * 60000);
        return ((local.getUTCDay() + 6) % 7) * DAY + local.getUTCHours() * 60 +
          local.getUTCMinutes();
      }
    }
    var parts = {};
    new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
    }).formatToParts(date).forEach(function (part) { parts[part.type] = part.value; });
    return WEEKDAYS[parts.weekday] * DAY + (Number(parts.hour) % 24) * 60 + Number(parts.minute);
  }

  // "day,opens,closes;…" (minutes from that day's midnight) to merged [start, end) intervals
  // of the week; an interval past Sunday midnight is also kept shifted back a week.
  function intervals(text) {
    var ranges = text.split(';').map(function (item) {
      var n = item.split(',').map(Number);
      return [n[0] * DAY + n[1], n[0] * DAY + n[2]];
    });
    ranges = ranges.concat(ranges.filter(function (r) { return r[1] > WEEK; })
      .map(function (r) { return [r[0] - WEEK, r[1] - WEEK]; }));
    ranges.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    ranges.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    });
    return merged;
  }

  function clock(minute) {
    var m = ((minute % DAY) + DAY) % DAY;
    return String(Math.floor(m / 60)).padStart(2, '0') + ':' + String(m % 60).padStart(2, '0');
  }

  function status(section, now) {
    var data = section.dataset;
    var spans = intervals(data.hours);
    var names = data.dayNames.split(',');
    var today = Math.floor(now / DAY);

    function dayWord(minute) {
      var day = ((Math.floor(minute / DAY) % 7) + 7) % 7;
      if (day === today) return dalilText('today');
      if (day === (today + 1) % 7) return dalilText('tomorrow');
      return names[day];
    }

    var covered = spans.some(function (s) { return s[0] <= 0 && s[1] >= WEEK; });
    if (covered) return dalilText('Open now, 24 hours a day');
    for (var i = 0; i < spans.length; i++) {
      var s = spans[i];
      if (s[0] <= now && now < s[1]) {
        // Open into the next week's first interval (Sunday night to Monday morning).
        var end = s[1];
        var first = spans[0];
        if (end >= WEEK && first[0] <= end - WEEK && first[1] > end - WEEK) end = first[1] + WEEK;
        if (end - now >= WEEK) return dalilText('Open now, 24 hours a day');
        // Closing at midnight is 24:00 of the day ending, as the week table shows it.
        var midnight = end % DAY === 0;
        return dalilText('Open now, closes %(day)s at %(time)s',
                         { day: dayWord(midnight ? end - 1 : end), time: midnight ? '24:00' : clock(end) });
      }
    }
    var next = null;
    spans.forEach(function (s) {
      var start = s[0] > now ? s[0] : s[0] + WEEK;
      if (next === null || start < next) next = start;
    });
    return dalilText('Closed now, opens %(day)s at %(time)s',
                     { day: dayWord(next), time: clock(next) });
  }

  function update() {
    document.querySelectorAll('.opening-hours[data-hours]').forEach(function (section) {
      var now = weekMinute(new Date(), section.dataset.timezone, section.dataset.utcOffsets);
      var line = section.querySelector('.open-status');
      var text = status(section, now);
      if (line.textContent !== text) line.textContent = text;
      line.hidden = false;
      var today = String(Math.floor(now / DAY));
      section.querySelectorAll('tr[data-day]').forEach(function (row) {
        if (row.dataset.day === today) row.setAttribute('aria-current', 'date');
        else row.removeAttribute('aria-current');
      });
    });
  }

  update();
  setInterval(update, 20000);
})();
