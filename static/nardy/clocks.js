/*
 * The match clocks of a timed match (templates/live/_clocks.html), on the recorder and the live
 * view. The server is the authority on time: each live state carries the clocks read at the
 * moment of its answer (state.clock.left, to the millisecond, and the delay the running side
 * still has). Between two answers this page only ticks them down for the eye, from the moment the
 * answer came; a reload or a second phone shows the same time because both read the server's.
 *
 * new NardyClocks(element, onChange): load(state) takes each new state; running() is the side
 * whose clock runs, fallen() the side whose time ran out as shown (the server decides when the
 * flag fall is entered); onChange is called on each tick.
 */
(function () {
  "use strict";

  var TICK_MS = 200;

  function Clocks(element, onChange) {
    this.element = element;
    this.onChange = onChange || function () {};
    this.state = null;
    this.since = 0;
    this.timer = null;
  }

  Clocks.prototype.load = function (state) {
    this.state = state;
    this.since = performance.now();
    this.element.hidden = !state.clock;
    if (!state.clock) {
      this.stop();
      return;
    }
    this.draw();
    if (!this.timer) {
      var self = this;
      this.timer = window.setInterval(function () {
        self.draw();
        self.onChange();
      }, TICK_MS);
    }
  };

  Clocks.prototype.stop = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
  };

  Clocks.prototype.running = function () {
    return this.state && this.state.clocks ? this.state.clocks.running : null;
  };

  // Seconds left on ``side``'s clock and the delay still to wait, as shown now.
  Clocks.prototype.reading = function (side) {
    var clock = this.state.clock;
    var left = clock.left[side];
    if (this.running() !== side) return { left: left, delay: 0 };
    var elapsed = (performance.now() - this.since) / 1000;
    var delay = Math.max(0, clock.delay_left - elapsed);
    var charged = Math.max(0, elapsed - clock.delay_left);
    return { left: Math.max(0, left - charged), delay: delay };
  };

  Clocks.prototype.fallen = function () {
    if (!this.state || !this.state.clock) return null;
    if (this.state.clock.flagged) return this.state.clock.flagged;
    var side = this.running();
    return side && this.reading(side).left <= 0 ? side : null;
  };

  function minutes(seconds) {
    var whole = Math.ceil(seconds - 1e-9);
    if (whole < 0) whole = 0;
    var m = Math.floor(whole / 60);
    var s = whole % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  Clocks.prototype.draw = function () {
    var state = this.state;
    var words = this.element.dataset;
    var fallen = this.fallen();
    var self = this;
    ["home", "away"].forEach(function (side, index) {
      var box = self.element.querySelector('[data-side="' + side + '"]');
      var reading = self.reading(side);
      box.querySelector('[data-role="name"]').textContent = state.names[index];
      box.querySelector('[data-role="time"]').textContent = minutes(reading.left);
      var note = "";
      if (fallen === side) note = words.textFlagged;
      else if (state.clock.paused && state.clock.on_turn === side) note = words.textPaused;
      else if (reading.delay > 0) note = Board().format(words.textDelay, { seconds: Math.ceil(reading.delay) });
      box.querySelector('[data-role="note"]').textContent = note;
      box.classList.toggle("is-running", self.running() === side && fallen !== side);
      box.classList.toggle("is-fallen", fallen === side);
      box.classList.toggle("is-low", reading.left < 30 && fallen !== side);
    });
    this.element.classList.toggle("is-paused", !!state.clock.paused);
  };

  function Board() {
    return window.NardyBoard;
  }

  window.NardyClocks = Clocks;
})();
