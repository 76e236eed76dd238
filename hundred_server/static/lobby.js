// The lobby drawn: the game tabs (built once), each game's presets and the table of
// your choice, and the list of tables to join or watch. Every server string goes in as
// a text node (dom.js).

import { askOptions, create, join, watch } from "./app.js";
import { $, el } from "./dom.js";
import { GAME_ORDER, gameTitle } from "./games.js";
import { clearError, state } from "./state.js";
import { render } from "./render.js";

export function renderLobby() {
  renderTabs();
  renderOptions();
  renderTables();
}

/** The game tabs: built once and then only marked, so that a click never lands on a
 * button that a message's render replaced under the pointer. A tab switches at once:
 * every game's options were asked for on connecting. */
function renderTabs() {
  const tabs = $("game-tabs");
  if (tabs.children.length !== GAME_ORDER.length) {
    tabs.replaceChildren(
      ...GAME_ORDER.map((name) =>
        el(
          "button",
          {
            type: "button",
            className: "tab",
            role: "tab",
            dataset: { game: name },
            onclick: () => {
              state.game = name;
              clearError("create");
              if (!state.options[name] && !state.optionsFor.includes(name)) askOptions(name);
              render();
            },
          },
          gameTitle(name),
        ),
      ),
    );
  }
  for (const tab of tabs.children) {
    tab.setAttribute("aria-selected", String(tab.dataset.game === state.game));
  }
}

/** The presets of the tab's game, each button holding its own game (rebuilt only when
 * the game or its options change). */
function renderOptions() {
  const options = state.options[state.game];
  const box = $("options");
  const custom = $("custom");
  const key = `${state.game}:${options ? options.length : "-"}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.dataset.game = state.game;
  if (!options) {
    box.replaceChildren(el("p", { className: "meta" }, "asking the server for the options…"));
    custom.hidden = true;
    return;
  }
  if (!options.length) {
    box.replaceChildren(el("p", { className: "meta" }, "This server does not offer this game."));
    custom.hidden = true;
    return;
  }
  const game = state.game;
  const presets = options.filter((o) => !o.back && !o.custom);
  box.replaceChildren(
    ...presets.map((o) =>
      el(
        "button",
        {
          type: "button",
          className: "option",
          dataset: { option: String(o.n), game },
          onclick: () => create(game, o.n),
        },
        o.text,
      ),
    ),
  );
  const choice = options.find((o) => o.custom);
  custom.hidden = !choice;
  if (choice) renderCustom(choice);
}

function renderCustom(choice) {
  const form = $("custom");
  if (form.dataset.game === state.game) return; // keep what the person typed
  form.dataset.game = state.game;
  form.dataset.option = String(choice.n);
  const seats = $("custom-seats");
  const range = [];
  for (let n = choice.custom.lo; n <= choice.custom.hi; n++) range.push(n);
  seats.replaceChildren(...range.map((n) => el("option", { value: String(n) }, String(n))));
  seats.value = String(choice.custom.hi);
  fillBots();
  $("custom-flags").replaceChildren(
    ...choice.custom.flags.map((flag) =>
      el(
        "label",
        { className: "inline" },
        el("input", { type: "checkbox", className: "flag", dataset: { flag } }),
        ` ${flag}`,
      ),
    ),
  );
}

export function fillBots() {
  const seats = Number($("custom-seats").value);
  const bots = $("custom-bots");
  const previous = bots.value;
  const range = [];
  for (let n = 0; n < seats; n++) range.push(n);
  bots.replaceChildren(...range.map((n) => el("option", { value: String(n) }, String(n))));
  bots.value = previous !== "" && range.includes(Number(previous)) ? previous : String(seats - 1);
}

function renderTables() {
  const list = $("tables");
  $("notice").textContent = state.notice;
  const byId = new Map();
  for (const t of state.watchable) byId.set(t.Table, { ...t, watch: true });
  for (const t of state.tables) byId.set(t.Table, { ...t, watch: byId.has(t.Table), open: true });
  const tables = [...byId.values()].sort((a, b) => a.Table - b.Table);
  // Unchanged lists keep their buttons (a click never lands on a replaced one).
  const key = JSON.stringify(tables);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  if (!tables.length) {
    list.replaceChildren(el("li", { className: "meta" }, "No tables yet: create one."));
    return;
  }
  list.replaceChildren(
    ...tables.map((t) => {
      const players = (t.Players || []).map((p) => (p === null ? "(free)" : String(p))).join(", ");
      const flags = Array.isArray(t.Flags) && t.Flags.length ? ` [${t.Flags.join(", ")}]` : "";
      const buttons = [];
      if (t.open && t.Free > 0) {
        buttons.push(
          el(
            "button",
            { type: "button", className: "small join", onclick: () => join(t.Table) },
            "join",
          ),
        );
      }
      if (t.watch) {
        buttons.push(
          el(
            "button",
            { type: "button", className: "small watch", onclick: () => watch(t.Table) },
            "watch",
          ),
        );
      }
      return el(
        "li",
        { dataset: { table: String(t.Table) } },
        el("strong", {}, String(t.Name ?? `table ${t.Table}`)),
        ` ${gameTitle(t.Game)}${flags}: ${players}`,
        t.Free > 0 ? ` — ${t.Free} free` : " — playing",
        typeof t.Watchers === "number" && t.Watchers ? ` — ${t.Watchers} watching` : "",
        " ",
        ...buttons,
      );
    }),
  );
}
