// pi-ask's web page: the small script that sends each press to the server and puts back the
// page it answers with, follows the server's events (new asks, answers given elsewhere), and
// shows a preview or filters a long list. The form's behaviour is the server's (the one engine);
// nothing here decides anything.
"use strict";
(() => {
  const FRAGMENT = { "x-pi-ask-fragment": "1" };
  let seen = null;
  let dirty = false;

  const main = () => document.getElementById("main");
  const page = () => main().firstElementChild;
  const say = (text) => { document.getElementById("status").textContent = text; };

  // The title: how many asks wait, then where the page is (a tab's name, or the heading).
  function retitle() {
    const tab = document.querySelector("nav .tabs [aria-current]");
    const heading = document.querySelector("#main h1");
    const name = (tab && tab.firstChild && tab.firstChild.textContent.trim())
      || (heading && heading.textContent.trim()) || "pi-ask";
    const count = seen && seen.waiting > 0 ? `(${seen.waiting}) ` : "";
    document.title = `${count}${name} · pi-ask`;
  }

  function put(html) {
    const before = page() && page().dataset.tab;
    main().innerHTML = html;
    dirty = false;
    prepare(before !== (page() && page().dataset.tab));
    retitle();
  }

  // Presses on their way: an event about the ask that arrives before a press's own answer is
  // looked at again once that answer is on the page (it may already show what the event says).
  let inflight = 0;
  let recheck = false;

  async function send(url, body) {
    inflight += 1;
    try {
      const response = await fetch(url, { method: "POST", body, headers: FRAGMENT });
      put(await response.text());
    } catch (_) {
      say("The server did not answer; nothing was lost here. Try again.");
    } finally {
      inflight -= 1;
    }
    if (inflight === 0 && recheck) {
      recheck = false;
      followAsk();
    }
  }

  // Fetches the open ask's page again when the server changed it after what the page shows
  // (another window, an answer elsewhere); the page's own presses are already on it.
  function followAsk() {
    const current = page();
    if (!current || current.dataset.page !== "form" || !seen) return;
    const id = current.dataset.ask;
    if ((seen.asks[id] || 0) <= Number(current.dataset.version || 0)) return;
    if (inflight > 0) {
      recheck = true;
      return;
    }
    if (dirty) {
      say("This ask changed in another window; save what you typed to see it.");
      return;
    }
    reload();
  }

  async function reload() {
    try {
      const response = await fetch(location.pathname, { headers: FRAGMENT });
      if (response.ok) put(await response.text());
    } catch (_) { /* the event stream says when it is back */ }
  }

  function post(form, act) {
    const body = new URLSearchParams(new FormData(form));
    if (act) body.set("act", act);
    return send(form.getAttribute("action"), body);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.method !== "post") return;
    event.preventDefault();
    const button = event.submitter;
    const url = (button && button.getAttribute("formaction")) || form.getAttribute("action");
    const body = new URLSearchParams(new FormData(form));
    if (button && button.name) body.set(button.name, button.value);
    send(url, body);
  });

  document.addEventListener("change", (event) => {
    const input = event.target;
    const act = input.dataset && input.dataset.act;
    if (!act) return;
    if (act === "own") {
      openOwn();
      return;
    }
    post(input.form, act);
  });

  document.addEventListener("input", (event) => {
    if (event.target.matches("textarea")) dirty = true;
    if (event.target.matches(".filter-input")) filter(event.target.value);
  });

  // A key as the keymap names it (`shift+n`, `ctrl+l`, `right`, `/`).
  const NAMED = {
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Enter: "enter",
    Escape: "esc", Tab: "tab", " ": "space", Home: "home", End: "end", PageUp: "pageUp",
    PageDown: "pageDown", Backspace: "backspace", Delete: "delete",
  };
  function keyId(event) {
    const single = event.key.length === 1;
    const base = NAMED[event.key] || (single ? event.key.toLowerCase() : null);
    if (!base) return null;
    const cased = single && event.key.toLowerCase() !== event.key.toUpperCase();
    return (event.ctrlKey ? "ctrl+" : "") + (event.shiftKey && (cased || !single) ? "shift+" : "")
      + (event.altKey ? "alt+" : "") + (event.metaKey ? "super+" : "") + base;
  }

  function openOwn() {
    document.getElementById("own-text").focus();
  }

  function openNote(details) {
    if (!details) return;
    details.open = true;
    const box = details.querySelector("textarea");
    if (box) box.focus();
  }

  // What the person's keymap binds, done the page's way (the terminal's actions of the same name).
  const PAGE_KEYS = {
    filter: () => { const box = document.querySelector(".filter-input"); if (box) box.focus(); },
    optionNote: () => {
      const focused = document.activeElement && document.activeElement.closest
        && document.activeElement.closest(".option[data-option]");
      const checked = document.querySelector(".option[data-option] input:checked");
      const option = focused || (checked && checked.closest(".option"))
        || document.querySelector(".option[data-option]");
      if (option) openNote(option.querySelector("details.note"));
    },
    questionNote: () => openNote(document.querySelector(".question > form > details.note")),
    nextTab: () => { const form = document.querySelector("form.tabs"); if (form) post(form, "next"); },
    previousTab: () => {
      const form = document.querySelector("form.tabs");
      if (form && page().dataset.tab !== "0") post(form, "back");
    },
  };

  document.addEventListener("keydown", (event) => {
    // Enter in the own answer's box uses it, as Enter does in the terminal's editor;
    // Shift+Enter starts a new line.
    if (event.key === "Enter" && !event.shiftKey && event.target.id === "own-text") {
      event.preventDefault();
      post(event.target.form, "own");
      return;
    }
    const typing = event.target.matches && event.target.matches("textarea, input[type=search]");
    const current = page();
    if (typing || !current || current.dataset.page !== "form") return;
    const id = keyId(event);
    // On a choice, Up and Down move the focus as the terminal's cursor moves (a browser's radio
    // group would choose on every arrow, and a choice goes on to the next question); Enter
    // chooses the one in focus, as in the terminal.
    const choice = event.target.matches && event.target.matches(".option > input");
    if (choice && (id === "up" || id === "down")) {
      event.preventDefault();
      const inputs = [...document.querySelectorAll(".option:not([hidden]) > input:not([disabled])")];
      const at = inputs.indexOf(event.target) + (id === "down" ? 1 : -1);
      if (inputs[at]) inputs[at].focus();
      return;
    }
    if (choice && id === "enter") {
      event.preventDefault();
      const input = event.target;
      if (input.dataset.act === "own") openOwn();
      else if (input.type === "checkbox") post(input.form, "next");
      else if (input.checked) post(input.form, input.dataset.act);
      else input.click();
      return;
    }
    // The digits choose (or tick) that option, as in the terminal.
    if (/^[1-9]$/.test(id || "")) {
      const input = document.querySelectorAll(".option[data-option] > input")[Number(id) - 1];
      if (input) { event.preventDefault(); input.click(); }
      return;
    }
    const bound = JSON.parse(current.dataset.keys || "{}");
    for (const [action, keys] of Object.entries(bound)) {
      if (keys.includes(id) && PAGE_KEYS[action]) {
        event.preventDefault();
        PAGE_KEYS[action]();
        return;
      }
    }
  });

  function showPreview(option) {
    document.querySelectorAll("[data-preview]").forEach((preview) => {
      preview.hidden = preview.dataset.preview !== option;
    });
  }
  for (const kind of ["focusin", "pointerover"]) {
    document.addEventListener(kind, (event) => {
      const option = event.target.closest && event.target.closest("[data-option]");
      if (option) showPreview(option.dataset.option);
    });
  }

  // The filter box sends what the person typed; the server's engine ranks the options as the
  // terminal's filter does (label and description, fuzzily), and the page shows what it says, in
  // its order. Only the newest query's answer is shown.
  let filtering = 0;
  let filterTimer = null;
  function filter(query) {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => askFilter(query), 60);
  }
  async function askFilter(query) {
    const current = page();
    if (!current || current.dataset.page !== "form") return;
    const mine = ++filtering;
    const url = `/ask/${encodeURIComponent(current.dataset.ask)}/filter?tab=${current.dataset.tab}`
      + `&q=${encodeURIComponent(query)}`;
    let shown;
    try {
      const response = await fetch(url, { headers: FRAGMENT });
      if (!response.ok) return;
      shown = (await response.json()).shown;
    } catch (_) {
      return;
    }
    if (mine !== filtering || page() !== current || !Array.isArray(shown)) return;
    const options = [...current.querySelectorAll(".option[data-option]")];
    if (!options.length) return;
    const parent = options[0].parentNode;
    const after = options[options.length - 1].nextSibling;
    const byIndex = new Map(options.map((o) => [o.dataset.option, o]));
    const rank = new Map(shown.map((i, n) => [String(i), n]));
    options.forEach((o) => { o.hidden = !rank.has(o.dataset.option); });
    const ordered = shown.map((i) => byIndex.get(String(i))).filter(Boolean)
      .concat(options.filter((o) => !rank.has(o.dataset.option)));
    for (const option of ordered) parent.insertBefore(option, after);
    current.dataset.filtered = query;
  }

  function prepare(moved) {
    const current = page();
    if (!current) return;
    if (moved) {
      const heading = current.querySelector("#prompt") || current.querySelector("h2")
        || current.querySelector("h1");
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      }
    }
  }

  function follow() {
    const events = new EventSource("/events");
    events.addEventListener("changes", (event) => {
      const now = JSON.parse(event.data);
      const before = seen;
      seen = now;
      retitle();
      if (!before) return;
      if (now.waiting > before.waiting && now.list !== before.list) {
        say(`A new question is waiting: ${now.newest || ""}`);
        if (window.Notification && Notification.permission === "granted" && document.hidden) {
          new Notification("pi-ask: a question is waiting", { body: now.newest || "" });
        }
      }
      const current = page();
      if (!current) return;
      const kind = current.dataset.page;
      // (A press on the list on its way brings the new list itself.)
      if (kind === "list" && now.list !== before.list && inflight === 0) reload();
      if (kind === "form") followAsk();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    prepare(false);
    follow();
    document.addEventListener("click", () => {
      if (window.Notification && Notification.permission === "default") {
        Notification.requestPermission();
      }
    }, { once: true });
  });
})();
