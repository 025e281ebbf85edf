// Small enhancements on top of plain forms and links: every page works without them.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function each(root, selector, callback) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), callback);
  }

  // The language switcher submits on change.
  function autosubmit(root) {
    each(root, "select[data-autosubmit]", function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
  }

  // Forms that change something important ask first; the question is in the page's language.
  function confirmations(root) {
    each(root, "form[data-confirm]", function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
      });
    });
  }

  // The result form shows only the part for the chosen way of giving the result.
  function resultModes(root) {
    each(root, "form.result-form", function (form) {
      function show() {
        var checked = form.querySelector("input[name=mode]:checked");
        each(form, "fieldset[data-mode]", function (part) {
          part.hidden = !checked || part.dataset.mode !== checked.value;
        });
      }
      each(form, "input[name=mode]", function (input) { input.addEventListener("change", show); });
      show();
      gameRows(form);
    });
  }

  // A form shows only the fields that apply to what is chosen in it (data-when: the values of
  // the fields each depends on; a hidden field counts as empty). The server ignores the others.
  function applicability(root) {
    each(root, "form", function (form) {
      var parts = form.querySelectorAll("[data-when]");
      if (!parts.length) { return; }
      function valueOf(name) {
        var inputs = form.querySelectorAll("[name='" + name + "']");
        var value = "";
        Array.prototype.forEach.call(inputs, function (input) {
          if (input.closest("[data-when][hidden]")) { return; }
          if (input.type === "checkbox") { if (input.checked) { value = "on"; } }
          else if (input.type === "radio") { if (input.checked) { value = input.value; } }
          else { value = input.value; }
        });
        return value;
      }
      function holds(part) {
        var when = JSON.parse(part.dataset.when);
        return Object.keys(when).every(function (controls) {
          return controls.split("|").some(function (name) {
            return when[controls].indexOf(valueOf(name)) !== -1;
          });
        });
      }
      function update() {
        for (var pass = 0; pass < 3; pass += 1) {  // a field hidden may hide those it controls
          Array.prototype.forEach.call(parts, function (part) { part.hidden = !holds(part); });
        }
        each(form, "fieldset", function (set) {
          var fields = set.querySelectorAll(":scope > .field, :scope > fieldset.field");
          if (!fields.length || set.classList.contains("field")) { return; }
          set.hidden = Array.prototype.every.call(fields, function (field) { return field.hidden; });
        });
      }
      form.addEventListener("change", update);
      update();
    });
  }

  // Game by game: the rows played so far and one empty row more (at least three) are shown.
  function gameRows(form) {
    var rows = Array.prototype.slice.call(form.querySelectorAll("fieldset[data-mode=games] tbody tr"));
    function update() {
      var filled = -1;
      rows.forEach(function (row, index) {
        if (row.querySelector("select[name$=-winner]").value) { filled = index; }
      });
      rows.forEach(function (row, index) { row.hidden = index > Math.max(2, filled + 1); });
    }
    rows.forEach(function (row) {
      row.querySelector("select[name$=-winner]").addEventListener("change", update);
    });
    update();
  }

  // Uploads show their progress, then say that the server is replaying the games. A refusal
  // (the form again, with the error) replaces the page's main part; success follows the redirect.
  function uploadProgress(root) {
    each(root, "form[data-upload-progress]", function (form) {
      var box = document.getElementById(form.dataset.uploadProgress);
      if (!box || !window.FormData || !window.DOMParser) { return; }
      var bar = box.querySelector("progress");
      var text = box.querySelector("[data-role=progress-text]");
      form.addEventListener("submit", function (event) {
        if (event.defaultPrevented) { return; }
        event.preventDefault();
        var request = new XMLHttpRequest();
        request.open("POST", form.action || window.location.href);
        request.setRequestHeader("X-Requested-With", "XMLHttpRequest");
        box.hidden = false;
        text.textContent = box.dataset.uploading;
        request.upload.addEventListener("progress", function (e) {
          if (e.lengthComputable) { bar.value = e.loaded / e.total; }
        });
        request.upload.addEventListener("load", function () {
          bar.removeAttribute("value");
          text.textContent = box.dataset.checking;
        });
        request.addEventListener("load", function () {
          if (request.status < 400) {
            window.location.assign(request.responseURL || window.location.href);
            return;
          }
          var answer = new DOMParser().parseFromString(request.responseText, "text/html");
          var main = answer.querySelector("main");
          if (!main) { text.textContent = box.dataset.failed; return; }
          document.querySelector("main").replaceWith(main);
          document.title = answer.title;
          enhance(main);
          window.scrollTo(0, 0);
        });
        request.addEventListener("error", function () { text.textContent = box.dataset.failed; });
        request.send(new FormData(form, event.submitter));
      });
    });
  }

  // Work that goes on in the background (rating replays) is polled until it is done.
  function polling(root) {
    each(root, "[data-poll-url]", function (box) {
      var text = box.querySelector("[data-role=progress-text]");
      var bar = box.querySelector("progress");
      function poll() {
        fetch(box.dataset.pollUrl, { headers: { Accept: "application/json" } })
          .then(function (response) { return response.json(); })
          .then(function (status) {
            if (status.done) {
              box.classList.add("done");
              text.textContent = box.dataset.done;
              if (bar) { bar.max = 1; bar.value = 1; }
            } else {
              text.textContent = box.dataset.pending.replace("%(count)s", status.pending);
              window.setTimeout(poll, 1000);
            }
          })
          .catch(function () { window.setTimeout(poll, 3000); });
      }
      poll();
    });
  }

  function printButtons(root) {
    each(root, "[data-print]", function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
  }

  // A player's name field offers the names a search finds as one types (the API's
  // players/?search=); without it the name is typed whole, and the form finds the player.
  function playerSearch(root) {
    each(root, "input[data-player-search]", function (input, index) {
      var list = document.createElement("datalist");
      var asked = "";
      var timer = null;
      list.id = "player-suggestions-" + index;
      input.setAttribute("list", list.id);
      input.parentNode.insertBefore(list, input.nextSibling);
      input.addEventListener("input", function () {
        window.clearTimeout(timer);
        var query = input.value.trim();
        if (query.length < 2 || query === asked) { return; }
        timer = window.setTimeout(function () {
          asked = query;
          fetch(input.dataset.playerSearch + encodeURIComponent(query),
                { headers: { Accept: "application/json" }, credentials: "same-origin" })
            .then(function (response) { return response.ok ? response.json() : { results: [] }; })
            .then(function (page) {
              list.textContent = "";
              (page.results || []).slice(0, 20).forEach(function (player) {
                var option = document.createElement("option");
                option.value = player.display_name;
                list.appendChild(option);
              });
            })
            .catch(function () { /* the name can still be typed whole */ });
        }, 250);
      });
    });
  }

  // The tie-break order starts as the format's own (data-defaults: by the first stage's kind,
  // else the format). When the format changes, an order still as the old format's default (or
  // empty) becomes the new one's; an order the organizer chose is kept.
  function tiebreakDefaults(root) {
    each(root, "ol[data-defaults]", function (list) {
      var form = list.closest("form");
      if (!form) { return; }
      var defaults = JSON.parse(list.dataset.defaults);
      var selects = list.querySelectorAll("select");
      function chosen(name) {
        var value = "";
        each(form, "[name='" + name + "']", function (input) {
          if (input.closest("[data-when][hidden]")) { return; }
          if (input.type === "radio") { if (input.checked) { value = input.value; } }
          else { value = input.value; }
        });
        return value;
      }
      function kind() { return chosen("first_stage") || chosen("format"); }
      function order() {
        return Array.prototype.map.call(selects, function (select) { return select.value; })
          .filter(function (value) { return value; });
      }
      // The order the script last put in (or the page came with, when it is the default):
      // while the selects still say it, the organizer has not chosen one of their own.
      var given = (defaults[kind()] || []).join(" ");
      var applied = order().join(" ") === given ? given : null;
      form.addEventListener("change", function (event) {
        if (event.target.name !== "format" && event.target.name !== "first_stage") { return; }
        var wanted = defaults[kind()];
        var current = order().join(" ");
        if (!wanted || (current && current !== applied)) { return; }
        Array.prototype.forEach.call(selects, function (select, place) {
          select.value = wanted[place] || "";
        });
        applied = wanted.join(" ");
      });
    });
  }

  // An event preset fills the fields of the form it names (data-fills) as soon as it is chosen
  // (data-presets: each preset's field values); each field stays the organizer's to change. The
  // form hears a change of each field it fills, so that it shows the fields that now apply.
  function eventPresets(root) {
    each(root, "form[data-fills]", function (chooser) {
      var form = document.getElementById(chooser.dataset.fills);
      var select = chooser.querySelector("select[data-presets]");
      if (!form || !select) { return; }
      var presets = JSON.parse(select.dataset.presets);
      // The button that reloads the page filled is for browsers without the script.
      each(chooser, "[data-role=preset-fill]", function (part) { part.remove(); });
      chooser.addEventListener("submit", function (event) { event.preventDefault(); });
      select.addEventListener("change", function () {
        var values = presets[select.value];
        if (!values) { return; }
        Object.keys(values).forEach(function (name) {
          var value = values[name] === null ? "" : String(values[name]);
          each(form, "[name='" + name + "']", function (input) {
            if (input.disabled) { return; }
            if (input.type === "radio") { input.checked = input.value === value; }
            else if (input.type === "checkbox") { input.checked = value === "true"; }
            else { input.value = value; }
            input.dispatchEvent(new Event("change", { bubbles: true }));
          });
        });
      });
    });
  }

  function enhance(root) {
    playerSearch(root);
    autosubmit(root);
    confirmations(root);
    resultModes(root);
    applicability(root);
    tiebreakDefaults(root);
    eventPresets(root);
    uploadProgress(root);
    polling(root);
    printButtons(root);
  }

  enhance(document);
})();
