/*
 * The board replay viewer of the match page.
 *
 * Reads the frames that games/viewer.py makes (embedded by templates/games/_board_viewer.html as
 * <script type="application/json" id="board-frames">) and draws each frame as inline SVG. Every
 * word shown comes from data-* attributes of the container, so Django translates them; the
 * English `description` of a frame is only a fallback.
 *
 * The board is always seen from White's side: top row White's points 13..24 left to right,
 * bottom row 12..1, White's home bottom right. The point numbers are those of the player whose
 * play is shown (frame.numbering), so a play like "24/18 13/11" can be read off the board; a
 * replay may fix them to one side instead (replay.numbering: the live view of a match).
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";

  // Geometry of the drawing, in viewBox units.
  var R = 26; // checker radius
  var PW = 56; // point width
  var SIDE = 16; // wooden frame at the sides
  var BAND = 34; // wooden frame at top and bottom, holding the point numbers
  var BAR_W = 56;
  var POINT_H = 260; // room for five checkers
  var MIDDLE = 80; // between the two rows: dice and the offered dave cube
  var TRAY_W = 68;
  var FIELD_L = SIDE; // left field starts here
  var FIELD_R = SIDE + 6 * PW + BAR_W; // right field starts here
  var TRAY_X = FIELD_R + 6 * PW + SIDE;
  var WIDTH = TRAY_X + TRAY_W + SIDE;
  var TOP = BAND;
  var TOP_END = TOP + POINT_H;
  var BOTTOM_START = TOP_END + MIDDLE;
  var BOTTOM = BOTTOM_START + POINT_H;
  var HEIGHT = BOTTOM + BAND;
  var MID_Y = TOP_END + MIDDLE / 2;
  var SHOWN = 5; // checkers drawn on one point before a count is written on the last one

  var COLOURS = {
    wood: "#6b4226",
    woodDark: "#4a2c18",
    felt: "#2f6b45",
    pointLight: "#e3c58f",
    pointDark: "#9c3b2e",
    moved: "#ffd54a",
    label: "#f3e6c8",
    white: "#f7f2e4",
    whiteEdge: "#5b5347",
    black: "#23201d",
    blackEdge: "#bdb6a8",
    die: "#fffdf6",
    pip: "#1d1d1d",
    cube: "#fbf7ea",
  };

  function svg(name, attributes, parent) {
    var element = document.createElementNS(SVG_NS, name);
    Object.keys(attributes || {}).forEach(function (key) {
      element.setAttribute(key, attributes[key]);
    });
    if (parent) parent.appendChild(element);
    return element;
  }

  function text(content, attributes, parent) {
    var element = svg("text", attributes, parent);
    element.textContent = content;
    return element;
  }

  // Fill "{name}" placeholders of a translated template.
  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  // Placeholders that hold what players typed or played (names, plays), not interface text.
  var USER_DATA = { name1: 1, name2: 1, white: 1, black: 1, winner: 1, play: 1, best: 1 };

  // The nodes of a filled template: user data in <span translate="no">, so that translation
  // tools (and the test for untranslated text) leave it alone. A value may itself be nodes.
  function formatNodes(template, values) {
    var fragment = document.createDocumentFragment();
    var parts = template.split(/\{(\w+)\}/);
    parts.forEach(function (part, index) {
      if (index % 2 === 0) {
        if (part) fragment.appendChild(document.createTextNode(part));
        return;
      }
      if (!Object.prototype.hasOwnProperty.call(values, part)) {
        fragment.appendChild(document.createTextNode("{" + part + "}"));
      } else if (values[part] instanceof Node) {
        fragment.appendChild(values[part].cloneNode(true));
      } else if (USER_DATA[part] && values[part] !== "") {
        var span = document.createElement("span");
        span.setAttribute("translate", "no");
        span.textContent = String(values[part]);
        fragment.appendChild(span);
      } else {
        fragment.appendChild(document.createTextNode(String(values[part])));
      }
    });
    return fragment;
  }

  function fill(element, nodes) {
    while (element.firstChild) element.removeChild(element.firstChild);
    element.appendChild(nodes);
  }

  // The x of a point's centre, and whether it is in the top row.
  function pointPlace(layout, point) {
    var column = layout.top.indexOf(point);
    var top = column >= 0;
    if (!top) column = layout.bottom.indexOf(point);
    var x = column < 6 ? FIELD_L + column * PW : FIELD_R + (column - 6) * PW;
    return { x: x + PW / 2, top: top, column: column };
  }

  function checkerY(top, index) {
    return top ? TOP + R + index * 2 * R : BOTTOM - R - index * 2 * R;
  }

  function drawChecker(group, colour, point, x, y, label) {
    var white = colour === "white";
    svg(
      "circle",
      {
        class: "checker " + colour,
        "data-point": point,
        cx: x,
        cy: y,
        r: R - 2,
        fill: white ? COLOURS.white : COLOURS.black,
        stroke: white ? COLOURS.whiteEdge : COLOURS.blackEdge,
        "stroke-width": 2.5,
      },
      group
    );
    svg("circle", { cx: x, cy: y, r: R - 9, fill: "none", stroke: white ? "#d8cfbb" : "#3d3832", "stroke-width": 2 }, group);
    if (label) {
      text(
        label,
        {
          x: x,
          y: y + 8,
          "text-anchor": "middle",
          "font-size": 22,
          "font-weight": "bold",
          "font-family": "system-ui, sans-serif",
          fill: white ? COLOURS.black : COLOURS.white,
        },
        group
      );
    }
  }

  function drawBoardFrame(group, replay) {
    svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, fill: COLOURS.wood }, group);
    svg("rect", { x: FIELD_L, y: TOP, width: 6 * PW, height: BOTTOM - TOP, fill: COLOURS.felt }, group);
    svg("rect", { x: FIELD_R, y: TOP, width: 6 * PW, height: BOTTOM - TOP, fill: COLOURS.felt }, group);
    svg("rect", { x: FIELD_L + 6 * PW, y: TOP, width: BAR_W, height: BOTTOM - TOP, fill: COLOURS.woodDark }, group);
    // Trays for borne-off checkers: Black's at the top, White's at the bottom.
    svg("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: POINT_H, rx: 6, fill: COLOURS.woodDark }, group);
    svg("rect", { x: TRAY_X, y: BOTTOM_START, width: TRAY_W, height: POINT_H, rx: 6, fill: COLOURS.woodDark }, group);
    var layout = replay.layout;
    [layout.top, layout.bottom].forEach(function (row, rowIndex) {
      row.forEach(function (point, column) {
        var place = pointPlace(layout, point);
        var left = place.x - PW / 2;
        var tipY = place.top ? TOP + POINT_H - 12 : BOTTOM - POINT_H + 12;
        var baseY = place.top ? TOP : BOTTOM;
        svg(
          "polygon",
          {
            class: "point",
            "data-point": point,
            points: [left + 2, baseY, left + PW - 2, baseY, place.x, tipY].join(" "),
            fill: (column + rowIndex) % 2 === 0 ? COLOURS.pointLight : COLOURS.pointDark,
          },
          group
        );
      });
    });
  }

  function drawHighlights(group, replay, frame) {
    frame.moved.forEach(function (point) {
      var place = pointPlace(replay.layout, point);
      var left = place.x - PW / 2;
      var tipY = place.top ? TOP + POINT_H - 12 : BOTTOM - POINT_H + 12;
      var baseY = place.top ? TOP : BOTTOM;
      svg(
        "polygon",
        {
          class: "moved",
          points: [left + 2, baseY, left + PW - 2, baseY, place.x, tipY].join(" "),
          fill: COLOURS.moved,
          "fill-opacity": 0.35,
          stroke: COLOURS.moved,
          "stroke-width": 3,
        },
        group
      );
    });
  }

  // The point numbers: the numbering of the player whose play is shown, or one fixed side's
  // for the whole game (replay.numbering, the live view's: spectators do not follow the mover).
  function drawLabels(group, replay, frame) {
    var layout = replay.layout;
    var numbering = replay.numbering || frame.numbering;
    for (var point = 1; point <= 24; point++) {
      var place = pointPlace(layout, point);
      var shown = numbering === "black" ? layout.black_numbers[point - 1] : point;
      var moved = frame.moved.indexOf(point) >= 0;
      text(
        String(shown),
        {
          x: place.x,
          y: place.top ? TOP - 10 : BOTTOM + 24,
          "text-anchor": "middle",
          "font-size": 17,
          "font-weight": moved ? "bold" : "normal",
          "font-family": "system-ui, sans-serif",
          fill: moved ? COLOURS.moved : COLOURS.label,
        },
        group
      );
    }
  }

  function drawCheckers(group, replay, frame) {
    var board = frame.board;
    board.points.forEach(function (count, index) {
      if (!count) return;
      var point = index + 1;
      var colour = count > 0 ? "white" : "black";
      var total = Math.abs(count);
      var place = pointPlace(replay.layout, point);
      var drawn = Math.min(total, SHOWN);
      for (var k = 0; k < drawn; k++) {
        var label = total > SHOWN && k === drawn - 1 ? String(total) : "";
        drawChecker(group, colour, point, place.x, checkerY(place.top, k), label);
      }
    });
    // The bar (Short Nardy): White's checkers below the middle, Black's above.
    var barX = FIELD_L + 6 * PW + BAR_W / 2;
    ["white", "black"].forEach(function (colour) {
      var total = board.bar[colour];
      var drawn = Math.min(total, 3);
      for (var k = 0; k < drawn; k++) {
        var offset = MIDDLE / 2 + R + 4 + k * 2 * R;
        var y = colour === "white" ? MID_Y + offset : MID_Y - offset;
        var label = total > drawn && k === drawn - 1 ? String(total) : "";
        drawChecker(group, colour, "bar", barX, y, label);
      }
    });
    // Borne-off checkers as slabs in the trays, from the outer edge inwards.
    ["white", "black"].forEach(function (colour) {
      var total = board.off[colour];
      var white = colour === "white";
      for (var k = 0; k < total; k++) {
        var y = white ? BOTTOM - 6 - (k + 1) * 16 : TOP + 6 + k * 16;
        svg(
          "rect",
          {
            class: "off " + colour,
            x: TRAY_X + 8,
            y: y,
            width: TRAY_W - 16,
            height: 13,
            rx: 3,
            fill: white ? COLOURS.white : COLOURS.black,
            stroke: white ? COLOURS.whiteEdge : COLOURS.blackEdge,
            "stroke-width": 1.5,
          },
          group
        );
      }
      if (total) {
        text(
          String(total),
          {
            x: TRAY_X + TRAY_W / 2,
            y: white ? BOTTOM_START - 12 : TOP_END + 30,
            "text-anchor": "middle",
            "font-size": 20,
            "font-weight": "bold",
            "font-family": "system-ui, sans-serif",
            fill: COLOURS.label,
          },
          group
        );
      }
    });
  }

  var PIPS = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };

  function drawDie(group, value, x, y, colour) {
    var size = 44;
    var white = colour === "white";
    svg(
      "rect",
      {
        class: "die",
        "data-value": value,
        x: x - size / 2,
        y: y - size / 2,
        width: size,
        height: size,
        rx: 8,
        fill: white ? COLOURS.die : COLOURS.black,
        stroke: white ? COLOURS.whiteEdge : COLOURS.blackEdge,
        "stroke-width": 2,
      },
      group
    );
    PIPS[value].forEach(function (pip) {
      svg("circle", { cx: x + pip[0] * 11, cy: y + pip[1] * 11, r: 4.5, fill: white ? COLOURS.pip : COLOURS.die }, group);
    });
  }

  // The dice of a turn, in the half of the board of the side that rolled them.
  function drawDice(group, frame) {
    if (!frame.dice) return;
    var centre = frame.side === "black" ? FIELD_L + 3 * PW : FIELD_R + 3 * PW;
    drawDie(group, frame.dice[0], centre - 28, MID_Y, frame.side);
    drawDie(group, frame.dice[1], centre + 28, MID_Y, frame.side);
  }

  // The dave cube: on the bar, in the middle while both may offer, else at the owner's side
  // (White bottom, Black top); an offered cube stands in the offering side's half.
  function drawCube(group, frame) {
    var size = 40;
    var x = FIELD_L + 6 * PW + BAR_W / 2;
    var y = MID_Y;
    var value = frame.stake;
    if (frame.offered) {
      value = frame.offered;
      x = frame.side === "black" ? FIELD_L + 3 * PW : FIELD_R + 3 * PW;
    } else if (frame.owner === "white") {
      y = BOTTOM - size / 2 - 6;
    } else if (frame.owner === "black") {
      y = TOP + size / 2 + 6;
    }
    svg(
      "rect",
      {
        class: "cube",
        "data-stake": value,
        x: x - size / 2,
        y: y - size / 2,
        width: size,
        height: size,
        rx: 6,
        fill: COLOURS.cube,
        stroke: frame.offered ? COLOURS.moved : COLOURS.woodDark,
        "stroke-width": frame.offered ? 4 : 2,
      },
      group
    );
    text(
      String(value),
      {
        x: x,
        y: y + 7,
        "text-anchor": "middle",
        "font-size": value >= 100 ? 15 : 20,
        "font-weight": "bold",
        "font-family": "system-ui, sans-serif",
        fill: COLOURS.pip,
      },
      group
    );
  }

  function Viewer(container, replay) {
    this.container = container;
    this.replay = replay;
    this.frames = replay.frames;
    this.index = 0;
    this.data = container.dataset;
    this.board = container.querySelector('[data-role="board"]');
    this.counter = container.querySelector('[data-role="counter"]');
    this.play = container.querySelector('[data-role="play"]');
    this.score = container.querySelector('[data-role="score"]');
    this.live = container.querySelector('[data-role="live"]');
    this.select = container.querySelector('[data-role="game"]');
    this.buttons = container.querySelectorAll("button[data-step]");
    this.verdict = container.querySelector('[data-role="verdict"]');
    this.bestButton = container.querySelector('[data-role="best"]');
    this.showingBest = false;
    this.gameStarts = [];
    this.blunders = [];
    var self = this;
    var judged = false;
    this.frames.forEach(function (frame, index) {
      if (frame.step === 0) self.gameStarts.push(index);
      if (frame.analysis) judged = true;
      if (frame.analysis && frame.analysis.mark === "blunder") self.blunders.push(index);
    });
    var analysis = container.querySelector('[data-role="verdicts"]');
    if (analysis && judged) {
      analysis.hidden = false;
      var count = container.querySelector('[data-role="blunders"]');
      if (count) count.textContent = format(this.word("textBlunders", "{count}"), { count: this.blunders.length });
    }
    this.board.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
    this.board.setAttribute("width", "100%");
    this.board.setAttribute("role", "img");
    this.fillGameSelector();
    this.connect();
    this.show(0, false);
  }

  Viewer.prototype.word = function (name, fallback) {
    var value = this.data[name];
    return value === undefined || value === "" ? fallback : value;
  };

  Viewer.prototype.sideName = function (side) {
    return side === "black" ? this.word("black", "●") : this.word("white", "○");
  };

  Viewer.prototype.playerName = function (frame, side) {
    var player = side === "white" ? frame.white_player : 3 - frame.white_player;
    return this.replay.names[player - 1];
  };

  // The translated text of a step (the English description when the page gives no template).
  Viewer.prototype.stepText = function (frame) {
    var parts = this.stepParts(frame);
    return format(parts[0], parts[1]);
  };

  Viewer.prototype.stepNodes = function (frame) {
    var parts = this.stepParts(frame);
    return formatNodes(parts[0], parts[1]);
  };

  // The template of a step's text and its values.
  Viewer.prototype.stepParts = function (frame) {
    var values = {
      game: frame.game,
      step: frame.step,
      side: frame.side ? this.sideName(frame.side) : "",
      dice: frame.dice ? frame.dice.join("") : "",
      play: frame.play || "",
      best: frame.play || "",
      stake: frame.offered || frame.stake,
      white: this.playerName(frame, "white"),
      black: this.playerName(frame, "black"),
      value: "",
      points: "",
      winner: "",
    };
    var key = {
      start: frame.crawford ? "textStartCrawford" : "textStart",
      roll: "textRoll",
      turn: frame.play ? "textTurn" : "textNoMove",
      best: "textBestShown",
      double: "textDouble",
      take: "textTake",
      drop: "textDrop",
      resign: "textResign",
      end: "textEnd",
    }[frame.kind];
    if (frame.kind === "resign") {
      values.value = this.word("value" + this.resignValue(frame), "");
    }
    if (frame.kind === "end" && frame.result) {
      var result = frame.result;
      if (result.ending === "draw") key = "textDraw";
      else if (result.ending === "unfinished" || !result.winner) key = "textUnfinished";
      else {
        values.winner = this.replay.names[result.winner_player - 1];
        values.side = this.sideName(result.winner);
        values.points = result.points;
        values.value = this.word("value" + result.value, "");
      }
    }
    var template = this.data[key];
    return template ? [template, values] : ["{play}", { play: frame.description }];
  };

  // A resignation's value is only in the end frame that follows it.
  Viewer.prototype.resignValue = function (frame) {
    var next = this.frames[this.frames.indexOf(frame) + 1];
    return next && next.result ? next.result.value : 1;
  };

  Viewer.prototype.scoreNodes = function (frame) {
    var score = frame.kind === "end" ? frame.score_after : frame.score_before;
    var names = this.replay.names;
    var colours = [frame.white_player === 1 ? "white" : "black", frame.white_player === 1 ? "black" : "white"];
    var values = {
      name1: names[0],
      name2: names[1],
      colour1: this.sideName(colours[0]),
      colour2: this.sideName(colours[1]),
      score1: score[0],
      score2: score[1],
      length: this.replay.length || "",
      stake: frame.stake,
    };
    var parts = [this.word("textScore", "{name1} ({colour1}) {score1} – {score2} {name2} ({colour2})")];
    if (this.replay.length) parts.push(this.word("textLength", "{length}"));
    if (frame.crawford) parts.push(this.word("textCrawford", "Crawford"));
    parts.push(this.word("textStake", "{stake}"));
    return formatNodes(parts.join(" · "), values);
  };

  // Where a tap lands (the recorder). Only what may be tapped now has a tap zone: the lit
  // points (a checker that may move, or where the selected one may go), the bar and the trays.
  // A zone is at least taps.minPx screen pixels wide (a point alone is about 24 px on a 390 px
  // phone), reaching over its neighbours when the point is narrower; a tap where two zones
  // overlap is for the page to settle (it asks which one). Returns the zones, in viewBox units.
  function drawTapAreas(board, group, replay, taps) {
    var marks = taps.marks || {};
    var box = board.getBoundingClientRect();
    var scale = Math.min(box.width / WIDTH, box.height / HEIGHT) || 1;
    var least = (taps.minPx || 0) / scale;
    var zones = [];
    function zone(tap, centre, narrow, y0, y1) {
      var width = Math.max(narrow, least);
      var x0 = Math.max(0, Math.min(WIDTH - width, centre - width / 2));
      zones.push({ tap: tap, x0: x0, x1: x0 + width, y0: y0, y1: y1, centre: centre, narrow: narrow });
    }
    for (var point = 1; point <= 24; point++) {
      var mark = marks[point];
      if (!mark) continue;
      var place = pointPlace(replay.layout, point);
      var y = place.top ? TOP : BOTTOM_START;
      svg("rect", { class: "tap-mark " + mark, "data-mark": String(point), x: place.x - PW / 2 + 3, y: y, width: PW - 6, height: POINT_H, rx: 8,
        fill: mark === "target" ? "#7fd37f" : "#ffd54a", "fill-opacity": mark === "source" ? 0.18 : 0.4,
        stroke: mark === "target" ? "#2e8b2e" : "#ffd54a", "stroke-width": mark === "selected" ? 6 : 3 }, group);
      zone(String(point), place.x, PW, place.top ? 0 : MID_Y, place.top ? MID_Y : HEIGHT);
    }
    var barX = FIELD_L + 6 * PW;
    if (marks.bar) {
      svg("rect", { class: "tap-mark " + marks.bar, "data-mark": "bar", x: barX + 3, y: TOP, width: BAR_W - 6, height: BOTTOM - TOP, rx: 8,
        fill: "#ffd54a", "fill-opacity": 0.3, stroke: "#ffd54a", "stroke-width": 4 }, group);
      zone("bar", barX + BAR_W / 2, BAR_W, 0, HEIGHT);
    }
    if (marks.off) {
      svg("rect", { class: "tap-mark target", "data-mark": "off", x: TRAY_X + 2, y: TOP, width: TRAY_W - 4, height: BOTTOM - TOP, rx: 8,
        fill: "#7fd37f", "fill-opacity": 0.4, stroke: "#2e8b2e", "stroke-width": 4 }, group);
      zone("off", TRAY_X + TRAY_W / 2, TRAY_W, 0, HEIGHT);
    }
    zones.forEach(function (found) {
      svg("rect", { class: "tap", "data-tap": found.tap, x: found.x0, y: found.y0, width: found.x1 - found.x0,
        height: found.y1 - found.y0, fill: "transparent" }, group);
    });
    return zones;
  }

  // The zones of drawTapAreas that hold a tap at (x, y), in viewBox units: one is a sure hit;
  // two or more, and the page asks which one rather than guess. A tap on the middle half of a
  // lit point's own column is that point's, whichever other zones reach there.
  function zonesAt(zones, x, y) {
    var reaching = zones.filter(function (zone) {
      return x >= zone.x0 && x <= zone.x1 && y >= zone.y0 && y <= zone.y1;
    });
    var middle = reaching.filter(function (zone) {
      return Math.abs(x - zone.centre) <= zone.narrow / 4;
    });
    return middle.length === 1 ? middle : reaching;
  }

  // Draw one frame on an <svg>: the board, the last play's highlight, the checkers, the dice,
  // the dave cube, and (for the recorder) marks and tap areas.
  function drawFrame(board, replay, frame, label, taps) {
    while (board.firstChild) board.removeChild(board.firstChild);
    board.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
    var title = svg("title", {}, board);
    title.textContent = label;
    board.setAttribute("aria-label", label);
    board.setAttribute("data-game", frame.game);
    board.setAttribute("data-step", frame.step);
    var group = svg("g", {}, board);
    drawBoardFrame(group, replay);
    drawHighlights(group, replay, frame);
    drawLabels(group, replay, frame);
    drawCheckers(group, replay, frame);
    drawDice(group, frame);
    if (replay.dave) drawCube(group, frame);
    return taps ? drawTapAreas(board, group, replay, taps) : [];
  }

  Viewer.prototype.draw = function (frame, label) {
    drawFrame(this.board, this.replay, frame, label, null);
  };

  // Show another replay in the same viewer (a live match's new state), at its last frame.
  Viewer.prototype.load = function (replay) {
    this.replay = replay;
    this.frames = replay.frames;
    this.show(this.frames.length - 1, true);
  };

  // The frame with the engine's best play in place of the play made (the verdict's board).
  Viewer.prototype.bestFrame = function (frame) {
    var best = Object.assign({}, frame);
    best.kind = "best";
    best.board = frame.analysis.board;
    best.moved = frame.analysis.moved;
    best.play = frame.analysis.best;
    return best;
  };

  // Show a frame; ``best`` shows the engine's best play instead of the play made, on demand.
  Viewer.prototype.show = function (index, announce, best) {
    var last = this.frames.length - 1;
    this.index = Math.max(0, Math.min(last, index));
    var made = this.frames[this.index];
    this.showingBest = Boolean(best && made.analysis && made.analysis.board);
    var frame = this.showingBest ? this.bestFrame(made) : made;
    var stepText = this.stepText(frame);
    var label = format(this.word("textLabel", "{game}.{step}: {text}"), {
      game: frame.game,
      step: frame.step,
      text: stepText,
    });
    this.draw(frame, label);
    if (this.counter) this.counter.textContent = this.index + 1 + " / " + this.frames.length;
    var labelTemplate = this.word("textLabel", "{game}.{step}: {text}");
    var labelValues = { game: frame.game, step: frame.step, text: this.stepNodes(frame) };
    fill(this.play, this.stepNodes(frame));
    var symbol = made.analysis && !this.showingBest ? SYMBOLS[made.analysis.mark] : "";
    if (symbol) {
      var sign = document.createElement("span");
      sign.className = "board-viewer__mark";
      sign.setAttribute("aria-hidden", "true");
      sign.textContent = " " + symbol;
      this.play.appendChild(sign);
    }
    if (made.accepted) {
      // A play the rules do not allow, which the opponent accepted (seed 001).
      var accepted = document.createElement("span");
      accepted.className = "badge accepted";
      accepted.setAttribute("data-role", "accepted");
      accepted.textContent = this.word("textAccepted", "accepted by the opponent as made");
      this.play.appendChild(document.createTextNode(" "));
      this.play.appendChild(accepted);
    }
    if (made.time) this.play.appendChild(this.timeNode(made.time));
    this.showVerdict(made);
    if (this.score) fill(this.score, this.scoreNodes(frame));
    if (this.select) this.select.value = String(frame.game);
    if (announce && this.live) fill(this.live, formatNodes(labelTemplate, labelValues));
    var self = this;
    Array.prototype.forEach.call(this.buttons, function (button) {
      var atStart = self.index === 0;
      var atEnd = self.index === last;
      var step = button.dataset.step;
      var off = ((step === "first" || step === "prev") && atStart) || ((step === "next" || step === "last") && atEnd);
      if (step === "prev-blunder" || step === "next-blunder") off = self.blunderFrom(step) < 0;
      button.setAttribute("aria-disabled", off ? "true" : "false");
    });
  };

  // When an action was entered at the table (the server's time, shown in the reader's zone) and,
  // in a timed match, both players' time left then; for the judge, when a phone that recorded
  // offline gave a time that could not be (it was clamped), what the phone said.
  Viewer.prototype.timeNode = function (time) {
    var node = document.createElement("span");
    node.className = "board-viewer__time muted";
    node.setAttribute("data-role", "move-time");
    var text = " · " + timeText(time.at);
    if (time.home !== undefined) {
      var names = this.replay.names;
      text += " · " + names[0] + " " + clockText(time.home) + ", " + names[1] + " " + clockText(time.away);
    }
    node.appendChild(untranslated(text));
    if (time.clamped) {
      var said = time.phone_at ? timeText(time.phone_at) : "?";
      var mark = document.createElement("span");
      mark.setAttribute("data-role", "clamped-time");
      mark.appendChild(document.createTextNode(" · "));
      mark.appendChild(formatNodes(this.word("textClamped", "{time}"), { time: untranslated(said) }));
      node.appendChild(mark);
    }
    return node;
  };

  function timeText(iso) {
    return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  function untranslated(text) {
    var span = document.createElement("span");
    span.setAttribute("translate", "no");
    span.textContent = text;
    return span;
  }

  function clockText(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var m = Math.floor(whole / 60);
    var s = whole % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  // Chess's and backgammon's signs after a play that was a blunder or an error.
  var SYMBOLS = { blunder: "??", error: "?" };

  // The verdict on the play of a frame (its mark, the equity it lost and the engine's best
  // play), and the button that shows the best play on the board.
  Viewer.prototype.showVerdict = function (frame) {
    if (!this.verdict) return;
    var verdict = frame.analysis;
    this.container.dataset.mark = verdict ? verdict.mark || "slight" : "";
    if (!verdict) {
      fill(this.verdict, document.createDocumentFragment());
      if (this.bestButton) this.bestButton.hidden = true;
      return;
    }
    var mark = this.word({ blunder: "markBlunder", error: "markError" }[verdict.mark] || "markSlight", verdict.mark);
    fill(this.verdict, formatNodes(this.word("textVerdict", "{mark}: -{loss} ({best})"), {
      mark: mark,
      loss: verdict.loss.toLocaleString(document.documentElement.lang || undefined, { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
      best: verdict.best,
    }));
    if (this.bestButton) {
      this.bestButton.hidden = !verdict.board;
      this.bestButton.setAttribute("aria-pressed", this.showingBest ? "true" : "false");
      this.bestButton.textContent = this.word(this.showingBest ? "textShowPlayed" : "textShowBest", "");
    }
  };

  // The frame of the previous or next blunder (-1: none that way).
  Viewer.prototype.blunderFrom = function (step) {
    var index = this.index;
    if (step === "next-blunder") {
      for (var k = 0; k < this.blunders.length; k++) if (this.blunders[k] > index) return this.blunders[k];
    } else {
      for (var j = this.blunders.length - 1; j >= 0; j--) if (this.blunders[j] < index) return this.blunders[j];
    }
    return -1;
  };

  Viewer.prototype.go = function (step) {
    if (step === "prev-blunder" || step === "next-blunder") {
      var blunder = this.blunderFrom(step);
      if (blunder >= 0) this.show(blunder, true);
      return;
    }
    var targets = { first: 0, prev: this.index - 1, next: this.index + 1, last: this.frames.length - 1 };
    if (!(step in targets)) return;
    var target = Math.max(0, Math.min(this.frames.length - 1, targets[step]));
    if (target !== this.index) this.show(target, true);
  };

  Viewer.prototype.fillGameSelector = function () {
    if (!this.select) return;
    var self = this;
    this.gameStarts.forEach(function (start) {
      var frame = self.frames[start];
      var option = document.createElement("option");
      option.value = String(frame.game);
      option.textContent = format(self.word("textGameOption", "{game}"), { game: frame.game });
      self.select.appendChild(option);
    });
  };

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var SHIFT_KEYS = { ArrowLeft: "prev-blunder", ArrowRight: "next-blunder" };

  Viewer.prototype.handleKey = function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return false;
    var step = (event.shiftKey ? SHIFT_KEYS : KEYS)[event.key];
    if (!step) return false;
    event.preventDefault();
    this.go(step);
    return true;
  };

  Viewer.prototype.connect = function () {
    var self = this;
    Array.prototype.forEach.call(this.buttons, function (button) {
      button.addEventListener("click", function () {
        self.go(button.dataset.step);
      });
    });
    if (this.bestButton) {
      this.bestButton.addEventListener("click", function () {
        self.show(self.index, true, !self.showingBest);
      });
    }
    if (this.select) {
      this.select.addEventListener("change", function () {
        var start = self.gameStarts[Number(self.select.value) - 1];
        if (start !== undefined) self.show(start, true);
      });
    }
    this.container.addEventListener("keydown", function (event) {
      self.handleKey(event);
    });
  };

  // The drawing and the viewer, for the recorder and the live view (static/nardy/live.js).
  window.NardyBoard = { Viewer: Viewer, drawFrame: drawFrame, zonesAt: zonesAt, format: format, formatNodes: formatNodes, fill: fill };

  var viewers = [];
  Array.prototype.forEach.call(document.querySelectorAll(".board-viewer[data-frames]"), function (container) {
    var source = document.getElementById(container.dataset.frames);
    if (!source) return;
    var replay = JSON.parse(source.textContent);
    if (!replay.frames || !replay.frames.length) return;
    viewers.push(new Viewer(container, replay));
  });

  // A link to a position (the analysis' worst plays: data-board-game, data-board-step) shows it
  // on the page's viewer and scrolls the viewer into view.
  if (viewers.length === 1) {
    Array.prototype.forEach.call(document.querySelectorAll("a[data-board-game][data-board-step]"), function (link) {
      link.addEventListener("click", function (event) {
        var viewer = viewers[0];
        var game = Number(link.dataset.boardGame);
        var step = Number(link.dataset.boardStep);
        var index = viewer.frames.findIndex(function (frame) {
          return frame.game === game && frame.step === step;
        });
        if (index < 0) return;
        event.preventDefault();
        viewer.show(index, true);
        viewer.container.scrollIntoView({ block: "start" });
        viewer.container.focus({ preventScroll: true });
      });
    });
  }

  // With a single viewer on the page, the arrow keys work while nothing else has the focus.
  if (viewers.length === 1) {
    document.addEventListener("keydown", function (event) {
      var active = document.activeElement;
      if (active && active !== document.body && active !== document.documentElement) return;
      viewers[0].handleKey(event);
    });
  }
})();
