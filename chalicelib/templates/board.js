{% raw %}
// The board page's script (board.html): draws the board view (chalicelib/pages/board.py), lets the
// player choose a step piece by piece from the view's legal steps (a card, then a flag; a unit, then
// a square, then a facing), asks for a confirmation, sends the step (or a whole Battle Line turn:
// play, claim, draw) and follows the game as it moves. Every sentence comes from the server (W).
"use strict";
const W = JSON.parse(document.getElementById("board-words").textContent);
let view = JSON.parse(document.getElementById("board-data").textContent);
const $ = (id) => document.getElementById(id);
// The page's language (board.html's lang): lists and numbers are written as it writes them.
const LANG = document.documentElement.lang || "en";
const LIST = new Intl.ListFormat(LANG, {style: "long", type: "conjunction"});
const NUMBER = new Intl.NumberFormat(LANG);
const listed = (items) => LIST.format(items.map(String));                         // "2, 4, and 7", "2、4和7"
const also = (items) => items.map(String).reduce((first, second) => fmt(W.also, {first, second}));  // no "and"

let choice = null;          // the step being chosen: {type?, card?, flag?, at?, ...}
let pressed = new Set();    // Battle Line: the flags pressed to be claimed
let returning = [];         // Battle Line: Scout's cards to put back, in order
let logLines = view.log.slice();
let logSeq = view.log_seq;
let fresh = new Set();
let recap = view.recap || [];
let drawn = view.drawn || [];
let said = view.messages || [];  // the other seats' messages since your last move
let busy = false, timer = null, failures = 0, focusPending = false;

// ---------------------------------------------------------------- helpers

function fmt(text, fields) {
  return String(text).replace(/\{(\w+)\}/g, (whole, key) => (!(key in fields) ? whole
    : typeof fields[key] === "number" ? NUMBER.format(fields[key]) : fields[key]));
}

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function button(label, onclick, attrs) {
  return h("button", {type: "button", onclick, ...(attrs || {})}, label);
}

// Values compared whatever the order of their keys ({"flag": 3, "card": c} is {"card": c, "flag": 3}).
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((name) => [name, canonical(value[name])]));
  }
  return value;
}
const key = (value) => (value === undefined ? "\u2205" : JSON.stringify(canonical(value)));
const same = (a, b) => key(a) === key(b);

function distinct(values) {
  const seen = new Map();
  for (const value of values) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}

function nameOf(seat) {
  const found = view.seats.find((s) => s.seat === seat);
  return found ? found.label : "?";
}

const myMove = () => view.you !== null && view.to_move === view.you && view.status === "active";
const stepsOf = (type) => view.steps.filter((c) => c.step.type === type);
const withAfter = (url) => url + (url.includes("?") ? "&" : "?") + "after=" + logSeq;

function setStatus(text) { $("status").textContent = text || ""; }
// What changed, said once by a screen reader (board.html's polite live region): the move just
// made (yours, accepted, or another seat's) and what the game is at now.
function announce(ours, added, body) {
  const head = body.headline.replace(/[.\u3002]$/, "");  // its own full stop comes from the sentence
  const moves = added.filter((line) => !line.said_by && line.text !== body.headline).map((line) => line.text);
  const now = moves.length ? fmt(W.announce_moves, {moves: also(moves), now: head}) : fmt(W.announce_now, {now: head});
  $("announce").textContent = ours ? fmt(W.announce_yours, {accepted: W.accepted, now}) : now;
}

// ---------------------------------------------------------------- choosing a step piece by piece

// The pieces of each step type, in the order the player chooses them. A piece with one possible
// value left is filled in without asking.
const FIELDS = {
  battleline: {play: ["card", "flag", "target", "to_flag"], mud_discard: ["mud"]},
  khan: {place: ["card"], deploy: ["card", "at", "facing"], command: ["card", "at", "sequence"],
         pay: ["card", "sequence"], move: ["at", "to", "facing"], turn: ["at", "facing"], skip: ["at"],
         flip: ["at"], discard_defence: ["at"], engage: ["target", "attackers"], advance: ["at"]},
};
const fieldsOf = (type) => (FIELDS[view.game] || {})[type] || [];

function valueOf(step, field) {
  if (field === "card") return step.card !== undefined ? step.card : step.unit;
  if (field === "mud") return {flag: step.flag, card: step.card};
  return step[field];
}

function candidates(sel) {
  return view.steps.filter(({step}) => {
    if (sel.type && step.type !== sel.type) return false;
    const fields = fieldsOf(step.type);
    for (const [field, value] of Object.entries(sel)) {
      if (field === "type") continue;
      if (!fields.includes(field) || !same(valueOf(step, field), value)) return false;
    }
    return true;
  });
}

// What is left to choose: {field, values}, or {done: the one step chosen}, or {none: true}.
function analyse(picked) {
  if (!picked) return null;
  const sel = {...picked};
  for (;;) {
    const found = candidates(sel);
    if (!found.length) return {none: true, sel};
    if (!sel.type) {
      const types = distinct(found.map((c) => c.step.type));
      if (types.length > 1) return {field: "type", values: types, sel};
      sel.type = types[0];
      continue;
    }
    const open = fieldsOf(sel.type).find((f) => !(f in sel));
    if (!open) return {done: found[0], sel};
    const values = distinct(found.map((c) => valueOf(c.step, open)));
    if (values.length > 1) return {field: open, values, sel};
    sel[open] = values[0];
  }
}

function choose(update) {
  choice = update === null ? null : {...(choice || {}), ...update};
  pressed = new Set();
  focusPending = true;
  setStatus("");
  render();
}

function cancel() {
  choice = null; pressed = new Set(); returning = []; focusPending = true;
  render();
}

// ---------------------------------------------------------------- sending

async function send(steps) {
  if (busy) return;
  busy = true;
  setStatus(W.sending);
  for (const node of document.querySelectorAll("#chooser button, #hand button, #table button")) node.disabled = true;
  const body = steps.length === 1 ? {expected_version: view.version, step: steps[0]}
                                  : {expected_version: view.version, steps};
  const message = $("message").value.replace(/\s+/g, " ").trim();  // one line, as the API takes it
  if (message) body.message = message;
  let answer = null, response = null;
  try {
    response = await fetch(withAfter(stepUrl), {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify(body)});
    answer = await response.json();
  } catch (error) {
    busy = false;
    setStatus(W.offline);
    render();
    schedule();
    return;
  }
  busy = false;
  choice = null; pressed = new Set(); returning = [];
  if (!response.ok) {
    setStatus(fmt(W.refused, {reason: answer.detail || answer.title || response.status}));
    await refresh(true);
    return;
  }
  setStatus("");
  $("message").value = "";  // it went with the step
  take(answer, true);
  schedule();
}

// ---------------------------------------------------------------- following the game

function take(body, ours) {
  const moved = body.version !== view.version;
  if (moved && !ours && choice) {
    choice = null; pressed = new Set(); returning = [];
    setStatus(W.moved_on);
  }
  const added = body.log.filter((line) => line.seq > logSeq);
  if (added.length) {
    fresh = new Set(added.map((line) => line.seq));
    logLines = logLines.concat(added);
  }
  if (moved || ours) announce(ours, added, body);
  logSeq = Math.max(logSeq, body.log_seq);
  if (body.recap !== null) recap = body.recap;
  if (body.drawn !== null) drawn = body.drawn;
  if (body.messages !== null) said = body.messages;
  view = body;
  if (moved || ours || added.length) render();
  else renderTop();
}

function schedule() {
  clearTimeout(timer);
  if (view.status === "finished") return;
  // Cheap: a few seconds while others move, less often while it is your move (they can only resign
  // or run out of time), backing off while the server cannot be reached; none while hidden.
  const delay = failures ? Math.min(60000, 4000 * 2 ** failures) : (myMove() ? 15000 : 4000);
  timer = setTimeout(() => refresh(false), delay);
}

async function refresh(always) {
  if (busy || (document.hidden && !always)) { schedule(); return; }
  try {
    const response = await fetch(withAfter(viewUrl), {cache: "no-store"});
    const body = await response.json();
    if (!response.ok) {
      failures += 1;
      setStatus(body.detail || W.offline);
    } else {
      failures = 0;
      take(body, false);
    }
  } catch (error) {
    failures += 1;
    setStatus(W.offline);
  }
  schedule();
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(false); });
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (choice || returning.length) && !$("resign-dialog").open) cancel();
});

// ---------------------------------------------------------------- drawing the page

function renderWaiting() {
  // A game that has not begun: whom it waits for and, for the seat asked, its answer links; no table yet.
  const waiting = view.waiting;
  for (const id of ["news", "table-box", "action"]) $(id).hidden = Boolean(waiting);
  $("waiting").hidden = !waiting;
  if (!waiting) return false;
  $("hand-box").hidden = true;
  $("danger").hidden = true;
  $("waiting-text").textContent = waiting.text;
  $("waiting-summary").replaceChildren(...waiting.summary.map((line) => h("li", {}, line)));
  $("waiting-links").replaceChildren(...waiting.links.map((link) =>
    h("a", {href: link.url, class: link.danger ? "answer danger-button" : "answer primary"}, link.label)));
  return true;
}

function render() {
  renderTop();
  if (renderWaiting()) { renderLog(); return; }
  renderNews();
  if (view.game === "battleline") { renderBattleLineTable(); renderBattleLineHand(); renderBattleLineAction(); }
  else { renderKhanField(); renderKhanInfo(); renderKhanHand(); renderKhanAction(); }
  renderLog();
  renderDeal();
  $("action").classList.toggle("choosing", Boolean(choice) || returning.length > 0);
  $("danger").hidden = !stepsOf("resign").length;
  if (focusPending) {
    focusPending = false;
    const target = document.querySelector("#chooser .primary") || document.querySelector("#chooser button");
    if (target && choice) target.focus({preventScroll: false});
  }
}

const baseTitle = document.title;

function renderTop() {
  $("headline").textContent = view.headline;
  document.title = `${view.headline} \u2013 ${baseTitle}`;  // a tab left open says whose move it is
  $("clock").replaceChildren(...view.clock.map((line) => h("li", {class: line.running ? "running" : ""}, line.text)));
}

function renderNews() {
  $("recap-title").textContent = view.you === null ? W.recap_watch : (myMove() ? W.recap : W.recap_before);
  const lines = recap.length ? recap : [logLines.length ? W.nothing_new : W.nothing_yet];
  $("recap").replaceChildren(...lines.map((line) => h("li", {}, line)));
  const names = view.game === "battleline" ? drawn.map((card) => cardFace(card).name)
                                           : drawn.map((card) => khanCard(card).name);
  $("drawn").textContent = names.length ? fmt(W.drawn, {cards: listed(names)}) : "";
  $("said").replaceChildren(...said.map((m) => h("figure", {class: "message"},
    h("figcaption", {}, fmt(W.says, {name: m.name})), h("blockquote", {}, m.text))));
  $("talk").hidden = !myMove();
  $("counts").replaceChildren(...view.counts.map((line) => h("li", {}, line)));
}

function renderDeal() {
  // The deal's commitment (chalicelib/presenting/show.py deal): its lines, what it means, how to check it.
  const deal = view.deal;
  $("deal").hidden = !deal;
  if (!deal) return;
  $("deal").replaceChildren(...deal.lines.map((line) => h("p", {}, line.before, h("code", {}, line.value), line.after)),
    h("p", {}, deal.about), ...(deal.command ? [h("p", {}, h("code", {}, deal.command))] : []));
}

function renderLog() {
  $("log").replaceChildren(...logLines.slice().reverse().map((line) => (line.said_by
    ? h("li", {class: "said-line" + (fresh.has(line.seq) ? " fresh" : "")},
        h("span", {class: "said-by"}, fmt(W.says, {name: line.said_by})), " ", h("q", {}, line.text))
    : h("li", {class: fresh.has(line.seq) ? "fresh" : ""}, line.text))));
  if (!logLines.length) $("log").append(h("li", {class: "nothing"}, W.nothing_yet));
  if ($("replay-link")) $("replay-link").hidden = !logLines.length;  // nothing to step through yet
}

// ---------------------------------------------------------------- Battle Line

function cardFace(card) {
  return view.table.cards[card] || {tactic: true, kind: "", name: card, rule: ""};
}

// A card drawn as a card: a troop's value large, its colour as a hue, a shape and a word; a tactic
// by its full name. ``onclick`` makes it a button.
function cardNode(card, opts) {
  const face = cardFace(card);
  const o = opts || {};
  const classes = ["card", face.tactic ? `tactic ${face.kind}` : `troop col-${face.colour}`];
  if (o.choosable) classes.push("choosable");
  if (o.ghost) classes.push("ghost");
  const label = face.tactic && face.rule ? also([face.name, face.rule]) : face.name;
  const inner = face.tactic
    ? [h("span", {class: "tname"}, face.name)]
    : [h("span", {class: "v"}, face.value), h("span", {class: "sym", "aria-hidden": "true"}, face.symbol),
       h("span", {class: "cname"}, face.colour_name)];
  if (o.badge) inner.push(h("span", {class: "badge", "aria-hidden": "true"}, o.badge));
  const attrs = {class: classes.join(" "), title: label, dataset: {card}};
  if (o.onclick || o.button) {
    return h("button", {...attrs, type: "button", "aria-label": o.badge ? `${label} (${o.badge})` : label,
                        "aria-pressed": o.pressed === undefined ? null : String(o.pressed),
                        disabled: o.disabled, onclick: o.onclick}, inner);
  }
  return h("span", {...attrs, role: "img", "aria-label": label}, inner);
}

function blState() {
  const state = analyse(choice);
  return state && state.none ? null : state;
}

function renderBattleLineTable() {
  const T = view.table;
  const state = blState();
  const field = state ? state.field : null;
  const sel = state ? state.sel : {};
  const top = T.flags[0].top.seat, bottom = T.flags[0].bottom.seat;
  const handSize = (seat) => (T.hand_sizes[String(seat)] !== undefined
    ? fmt(W.hand_of, {name: nameOf(seat), count: T.hand_sizes[String(seat)]}) : "");
  const mudPending = view.phase === "mud_discard" && myMove();
  const flags = T.flags.map((flag) => {
    const sideNode = (side, where) => h("div", {class: `side ${where}`},
      side.cards.map((card) => {
        const value = {flag: flag.flag, card};
        const asTarget = field === "target" && state.values.some((v) => same(v, value));
        const asMud = mudPending && where === "bottom" && candidates({type: "mud_discard", mud: value}).length > 0;
        if (asTarget) return cardNode(card, {choosable: true, onclick: () => choose({target: value})});
        if (asMud) return cardNode(card, {choosable: true, onclick: () => choose({type: "mud_discard", mud: value})});
        return cardNode(card);
      }));
    const topSide = sideNode(flag.top, "top");
    const bottomSide = sideNode(flag.bottom, "bottom");
    if (T.three_players) {  // each flag between its own two seats: each side named
      topSide.append(h("span", {class: "side-name"}, nameOf(flag.top.seat)));
      bottomSide.append(h("span", {class: "side-name"}, nameOf(flag.bottom.seat)));
    }
    // The card being played, shown where it would go.
    const goes = sel.type === "play" && sel.card && !sel.target &&
      (sel.flag === flag.flag) && cardFace(sel.card).kind !== "environment";
    if (goes && state.done) bottomSide.append(cardNode(sel.card, {ghost: true}));
    const pick = (field === "flag" || field === "to_flag") && state.values.includes(flag.flag);
    if (pick && field === "flag") bottomSide.classList.add("droppable");
    const chips = [];
    for (const env of flag.environment) {
      const face = cardFace(env.card);
      chips.push(h("span", {class: `chip ${env.card.toLowerCase()}`, title: face.rule}, face.name));
    }
    if (flag.claimed_by !== null) {
      const mine = flag.claimed_by === view.you;
      chips.push(h("span", {class: `chip won${mine ? " mine" : ""}`},
                   mine ? W.won_by_you : fmt(W.won_by, {name: flag.claimed_name || "?"})));
    }
    if (pressed.has(flag.flag)) chips.push(h("span", {class: "chip claim"}, `\u2713 ${W.claiming}`));
    const numberLabel = fmt(W.flag, {flag: flag.flag});
    const claimedClass = flag.claimed_by === null ? "" : (flag.claimed_by === view.you ? " claimed-mine" : " claimed-theirs");
    const chosen = sel.flag === flag.flag || sel.to_flag === flag.flag;
    const content = [h("span", {class: "num"}, h("span", {class: "word"}, W.flag.replace("{flag}", "").trim() + " "),
                           String(flag.flag)), ...chips];
    // Its name for a screen reader: the flag, each side's cards, and who won it (or that nobody has).
    const sideCount = (side) => fmt(side.cards.length === 1 ? W.side_card : W.side_cards,
                                    {name: side.seat === view.you ? W.you_side : nameOf(side.seat), count: side.cards.length});
    const describe = fmt(W.labelled, {label: numberLabel, value: also([sideCount(flag.bottom), sideCount(flag.top),
      ...(flag.claimed_by === null ? [W.unclaimed] : []), ...chips.map((c) => c.textContent)])});
    const marker = pick
      ? h("button", {type: "button", class: `marker choosable${claimedClass}`, "aria-label": describe,
                     dataset: {flag: flag.flag}, onclick: () => choose({[field]: flag.flag})}, content)
      : h("div", {class: `marker${claimedClass}${chosen ? " chosen" : ""}`, role: "group", "aria-label": describe,
                  dataset: {flag: flag.flag}}, content);
    return h("div", {class: "flag-col", dataset: {flag: flag.flag}}, topSide, marker, bottomSide);
  });
  const table = h("div", {class: `bl${T.three_players ? " three" : ""}`, role: "group", "aria-label": view.title},
    h("div", {class: "who"}, h("span", {}, nameOf(top)), h("span", {class: "sub"}, handSize(top))),
    h("div", {class: "names-row"}, h("span", {}, nameOf(top)), h("span", {}, ""), h("span", {}, nameOf(bottom))),
    h("div", {class: "flags"}, flags),
    h("div", {class: "who"}, h("span", {}, nameOf(bottom)), h("span", {class: "sub"}, view.you === null ? handSize(bottom) : "")));
  $("table").replaceChildren(table);
}

function renderBattleLineHand() {
  const box = $("hand-box");
  box.hidden = view.you === null;
  if (view.you === null) return;
  const state = blState();
  const sel = state ? state.sel : {};
  const scoutReturn = view.phase === "scout_return" && myMove();
  const playable = new Set(stepsOf("play").map((c) => c.step.card));
  // Another card may be chosen at any time while playing: the choice starts again from it.
  const choosingCard = myMove() && view.phase === "play" && (!choice || state === null || sel.type === "play");
  const newCards = drawn.slice();
  const nodes = view.hand.map((card) => {
    let badge = null;
    const at = newCards.indexOf(card);
    if (at >= 0) { badge = W.new_card; newCards.splice(at, 1); }
    if (scoutReturn) {
      const order = returning.indexOf(card);
      return cardNode(card, {button: true, pressed: order >= 0, badge: order >= 0 ? String(order + 1) : badge,
                             onclick: () => toggleReturn(card)});
    }
    const isChosen = sel.card === card && sel.type === "play";
    const can = choosingCard && playable.has(card);
    return cardNode(card, {button: true, badge, pressed: isChosen, disabled: !(can || isChosen),
                           onclick: () => (isChosen ? cancel() : ((choice = null), choose({card})))});
  });
  const hand = $("hand");
  hand.classList.toggle("choosing", choosingCard);
  hand.replaceChildren(...nodes);
  // why a card it holds has no play now (the tactics count, a second Leader): said under the hand
  $("held-back").replaceChildren(...(choosingCard ? view.table.held_back : []).map((line) => h("p", {class: "note"}, line)));
}

function toggleReturn(card) {
  const at = returning.indexOf(card);
  if (at >= 0) returning.splice(at, 1);
  else if (returning.length < (view.table.scout ? view.table.scout.to_return : 2)) returning.push(card);
  focusPending = true;
  render();
}

// The flags a claim makes, and whether it wins the game (3 adjacent flags or enough flags): the
// steps after a winning claim are left out, since the game is then over.
function claimWins() {
  const v = view.table.victory;
  const held = new Set([...v.held, ...pressed]);
  if (!pressed.size) return false;
  if (held.size >= v.flags) return true;
  const order = [];
  for (let i = 0; i < (v.ring ? 2 * v.count : v.count); i += 1) order.push((i % v.count) + 1);
  let run = 0;
  for (const flag of order) {
    run = held.has(flag) ? run + 1 : 0;
    if (run >= v.adjacent) return true;
  }
  return false;
}

// The rest of the turn after ``phase`` that the page can plan now: a claim (of flags known to be
// claimable then) and a draw. A play is chosen after it.
function restOfTurn(phase, claimable) {
  const T = view.table;
  const order = T.phase_order;
  const plan = [];
  for (const next of order.slice(order.indexOf(phase) + 1)) {
    if (next === "claim") {
      if (T.auto_claim) continue;
      if (claimable === null || claimable === undefined) break;
      plan.push("claim");
    } else if (next === "draw") {
      if (T.scouted || !(T.decks.troop || T.decks.tactics)) continue;
      plan.push("draw");
    } else break;
  }
  return plan;
}

function turnSteps(first, plan, deck) {
  const steps = first ? [first] : [];
  for (const part of plan) {
    if (part === "claim") {
      steps.push({type: "claim", flags: [...pressed].sort((a, b) => a - b)});
      if (claimWins()) break;
    } else if (part === "draw") steps.push({type: "draw", deck});
  }
  return steps;
}

// The turn's form: the step chosen (if any), the claim toggles, then the draw buttons that send it all.
function turnForm(first, plan, claimable) {
  const parts = [];
  if (plan.includes("claim")) {
    if (claimable.length) {
      parts.push(h("p", {class: "prompt"}, W.choose_claims));
      parts.push(h("div", {class: "buttons"}, claimable.map((flag) => button(fmt(W.claim_flag, {flag}), () => {
        if (pressed.has(flag)) pressed.delete(flag); else pressed.add(flag);
        render();
        const again = document.querySelector(`#chooser [data-claim="${flag}"]`);
        if (again) again.focus();
      }, {class: "toggle", "aria-pressed": String(pressed.has(flag)), dataset: {claim: flag}}))));
    } else {
      parts.push(h("p", {class: "note"}, W.no_claims));
    }
  }
  const wins = plan.includes("claim") && claimWins();
  if (wins) parts.push(h("p", {class: "note"}, h("strong", {}, W.claim_wins)));
  const T = view.table;
  if (plan.includes("draw") && !(wins && plan.indexOf("claim") < plan.indexOf("draw"))) {
    parts.push(h("p", {class: "prompt"}, W.then_draw));
    parts.push(h("div", {class: "decks"}, ["troop", "tactics"].map((deck) => h("button", {
      type: "button", class: `deck ${deck}${deck === "troop" ? " primary" : ""}`, disabled: !T.decks[deck],
      dataset: {deck}, onclick: () => send(turnSteps(first, plan, deck))},
      deck === "troop" ? W.draw_troop : W.draw_tactics,
      h("small", {}, fmt(W.cards_left, {count: T.decks[deck]}))))));
  } else {
    const flags = listed([...pressed].sort((x, y) => x - y));
    const label = first ? W.confirm : (pressed.size ? fmt(W.claim_these, {flags}) : W.claim_none);
    parts.push(h("div", {class: "buttons"}, button(label, () => send(turnSteps(first, plan, null)),
                                                    {class: "primary"})));
  }
  return parts;
}

// Why the page offers nothing to do now (the game is over, a spectator, not the seat's decision:
// ``canAct`` says), or null.
function idlePrompt(canAct) {
  if (view.status === "finished") return W.game_over;
  if (view.you === null) return W.watching;
  if (!canAct()) return W.nothing_to_do;
  return null;
}

function optionButtons(values, label, pick) {
  return h("div", {class: "buttons"}, values.map((value) => button(label(value), () => pick(value), {class: "option"})));
}

function renderBattleLineAction() {
  const chooser = $("chooser");
  const parts = [];
  const T = view.table;
  const cancelButton = () => button(W.cancel, cancel, {class: "secondary"});
  const idle = idlePrompt(myMove);
  if (idle) {
    parts.push(h("p", {class: "prompt"}, idle));
  } else if (choice) {
    const state = blState();
    if (!state) { choice = null; return renderBattleLineAction(); }
    const sel = state.sel;
    const name = sel.card ? cardFace(sel.card).name : "";
    if (state.done) {
      const chosen = state.done;
      parts.push(h("p", {class: "sentence"}, chosen.label));
      const claimable = chosen.claimable_after;
      const plan = (claimable === null || claimable === undefined) ? [] : restOfTurn(view.phase, claimable);
      if (plan.length) parts.push(...turnForm(chosen.step, plan, claimable));
      else parts.push(h("div", {class: "buttons"}, button(W.confirm, () => send([chosen.step]), {class: "primary"})));
      parts.push(h("div", {class: "buttons"}, cancelButton()));
    } else {
      const prompts = {card: W.choose_card, flag: fmt(W.choose_flag, {card: name}),
                       target: fmt(W.choose_target, {card: name}), to_flag: fmt(W.choose_destination, {card: name})};
      parts.push(h("p", {class: "prompt"}, prompts[state.field] || W.choose_card));
      if (state.field === "target") {
        parts.push(optionButtons(state.values, (v) => `${cardFace(v.card).name} \u2013 ${fmt(W.flag, {flag: v.flag})}`,
                                 (v) => choose({target: v})));
      } else if (state.field === "to_flag" || state.field === "flag") {
        parts.push(optionButtons(state.values, (v) => (v === undefined ? W.discard_it : fmt(W.flag, {flag: v})),
                                 (v) => choose({[state.field]: v})));
      }
      parts.push(h("div", {class: "buttons"}, cancelButton()));
    }
  } else if (view.phase === "play") {
    parts.push(h("p", {class: "prompt"}, W.choose_card));
    if (stepsOf("pass").length) {
      parts.push(h("div", {class: "buttons"}, button(W.pass, () => choose({type: "pass"}))));
    }
  } else if (view.phase === "claim") {
    parts.push(...turnForm(null, ["claim", ...restOfTurn("claim", null)], T.claimable));
  } else if (view.phase === "draw") {
    const plan = ["draw", ...restOfTurn("draw", T.claimable)];
    parts.push(...turnForm(null, plan, T.claimable));
  } else if (view.phase === "scout_draw") {
    parts.push(h("p", {class: "prompt"}, W.choose_deck));
    parts.push(h("div", {class: "decks"}, stepsOf("scout_draw").map((c) => h("button", {
      type: "button", class: `deck ${c.step.deck}`, dataset: {deck: c.step.deck}, onclick: () => send([c.step])},
      c.label, h("small", {}, fmt(W.cards_left, {count: T.decks[c.step.deck]}))))));
  } else if (view.phase === "scout_return") {
    parts.push(h("p", {class: "prompt"}, W.choose_return));
    const found = stepsOf("scout_return").find((c) => same(c.step.cards, returning));
    if (found) {
      parts.push(h("p", {class: "sentence"}, found.label));
      parts.push(h("div", {class: "buttons"}, button(W.confirm, () => send([found.step]), {class: "primary"}),
                   button(W.cancel, cancel, {class: "secondary"})));
    }
  } else if (view.phase === "mud_discard") {
    const pending = stepsOf("mud_discard");
    const flag = pending.length ? pending[0].step.flag : "";
    parts.push(h("p", {class: "prompt"}, fmt(W.choose_mud, {flag})));
    parts.push(optionButtons(pending.map((c) => c.step), (s) => cardFace(s.card).name,
                             (s) => choose({type: "mud_discard", mud: {flag: s.flag, card: s.card}})));
  }
  // Anything the page has no better way to offer.
  if (myMove() && !choice) {
    const known = ["play", "pass", "claim", "draw", "scout_draw", "scout_return", "mud_discard", "resign"];
    const others = view.steps.filter((c) => !known.includes(c.step.type));
    if (others.length) {
      parts.push(h("p", {class: "prompt"}, W.other_steps));
      parts.push(h("div", {class: "buttons"}, others.map((c) => button(c.label, () => choose({type: c.step.type})))));
    }
  }
  chooser.replaceChildren(...parts);
}

// ---------------------------------------------------------------- Khan & General

function khanCard(card) {
  return view.table.cards[card] || {unit: false, name: card, kind: "", kind_name: "", cost: 0, keywords: [], units: ""};
}

function renderKhanField() {
  const box = h("div", {class: "field", role: "group", "aria-label": W.field});
  box.innerHTML = view.svg;  // the game's own drawing (chalicelib/games/khan/render.py), from this seat's view
  $("table").replaceChildren(box);
  fitField(box);
}

// The field as large as its box allows (up to half as large again, and half the window's height):
// whole on a phone's 390 px, where its 460 units are drawn at about 0.8 (its smallest words, 15 units, still 12 px). Never
// below that scale, so that its words stay readable: a wider field scrolls in its box instead.
const FIELD_MIN_SCALE = 0.8;
function fitField(box) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  const natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
  if (!natural) return;
  const style = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // No taller than half the window, so that the hand and the turn's panel under it stay in sight.
  const tall = svg.viewBox.baseVal.height ? window.innerHeight * 0.5 / svg.viewBox.baseVal.height : 1.5;
  svg.style.width = `${Math.max(natural * FIELD_MIN_SCALE, Math.min(room, natural * Math.min(1.5, tall)))}px`;
  svg.style.maxWidth = "none";
}
let fittedTo = window.innerWidth;  // refit when the width changes (not the height: a phone's bars come and go)
window.addEventListener("resize", () => {
  if (window.innerWidth === fittedTo) return;
  fittedTo = window.innerWidth;
  const box = document.querySelector("#table .field");
  if (box) fitField(box);
});

function renderKhanInfo() {
  const T = view.table;
  const cards = [];
  const active = T.sides.find((s) => s.seat === T.active);
  const turn = h("div", {class: "info-card"},
    h("h3", {}, fmt(W.round, {round: T.round, rounds: T.max_rounds})),
    active ? h("p", {}, fmt(W.labelled, {label: active.name, value: fmt(W.limit, {played: T.played, limit: active.limit})})) : null);
  cards.push(turn);
  for (const side of T.sides) {
    const zone = side.sequences.length
      ? h("ul", {}, side.sequences.map((pile) => h("li", {}, fmt(W.aside, {text: pile.label, detail: pile.shown}))))
      : h("p", {}, W.empty);
    const discarded = side.discards.cards && side.discards.cards.length
      ? listed(side.discards.cards.map((c) => khanCard(c).name)) : side.discards.size;
    cards.push(h("div", {class: "info-card", dataset: {seat: side.seat}},
      h("h3", {}, h("span", {class: "swatch", style: `background:${side.colour}`, "aria-hidden": "true"}),
        side.faction ? `${side.name} \u2013 ${side.faction}` : side.name),
      h("ul", {},
        h("li", {}, fmt(W.in_hand, {count: side.hand})),
        h("li", {}, fmt(W.limit_of, {limit: side.limit})),
        h("li", {}, fmt(W.units_left, {count: side.units_left})),
        h("li", {}, fmt(W.labelled, {label: W.discards, value: discarded})),
        side.destroyed.length ? h("li", {}, fmt(W.labelled, {label: W.destroyed,
                                                             value: listed(side.destroyed.map((c) => khanCard(c).name))})) : null),
      h("p", {class: "note"}, h("strong", {}, W.command_zone)), zone));
  }
  const legend = h("div", {class: "info-card"}, h("h3", {}, W.legend),
    // The drawings' legend (render.entries): each unit type's label, and each command badge's, in its
    // colour as the field draws it, with the card's name and what it is (power and reach; kind, cost, keywords).
    h("table", {class: "legend-table"},
      h("tbody", {}, T.legend.map((row) => h("tr", {dataset: {what: row.what}},
        h("td", {class: "abbr"}, h("span", {class: `key ${row.what}`, style: `background:${row.colour}`}, row.abbr)),
        h("td", {class: "legend-name"}, row.name), h("td", {}, row.words))))),
    h("ul", {}, T.sides.map((side) => h("li", {},
      h("span", {class: "swatch", style: `background:${side.colour}`, "aria-hidden": "true"}), side.name)),
      T.marks.map((mark) => h("li", {}, mark.text))));
  cards.push(legend);
  $("info").replaceChildren(...cards);
}

function khanState() {
  const state = analyse(choice);
  return state && state.none ? null : state;
}

function renderKhanHand() {
  const box = $("hand-box");
  box.hidden = view.you === null;
  if (view.you === null) return;
  const state = khanState();
  const sel = state ? state.sel : {};
  const usable = new Set(view.steps.filter((c) => fieldsOf(c.step.type).includes("card")).map((c) => valueOf(c.step, "card")));
  const allowed = !myMove() ? new Set() : (state && state.field === "card" ? new Set(state.values) : usable);
  const units = view.hand.filter((card) => khanCard(card).unit);
  const nodes = units.concat(view.hand.filter((card) => !khanCard(card).unit)).map((card) => {
    const face = khanCard(card);
    const chosen = sel.card === card;
    const lines = face.unit
      ? [h("span", {class: "kind"}, `${face.abbr} \u00b7 ${fmt(W.power, {power: face.power})}`),
         face.reach ? h("span", {class: "kind"}, face.reach) : null]
      : [h("span", {class: "kind"}, `${face.kind_name} \u00b7 ${fmt(W.cost, {cost: face.cost})}`),
         face.keywords.length ? h("span", {class: "kind"}, also(face.keywords)) : null,
         face.units ? h("span", {class: "kind for"}, fmt(W.for_units, {units: face.units})) : null];
    return h("button", {type: "button", class: `kcard${face.unit ? " unit" : ""} seat-${view.you}`,
                        dataset: {card}, "aria-pressed": String(chosen), disabled: !(allowed.has(card) || chosen),
                        onclick: () => {
                          if (chosen) cancel();
                          else if (state && state.field === "card" && state.values.includes(card)) choose({card});
                          else { choice = null; choose({card}); }
                        }},
      h("span", {class: "kname"}, face.name), lines);
  });
  const hand = $("hand");
  hand.classList.toggle("choosing", Boolean(choice));
  hand.replaceChildren(...nodes);
}

function squareText(at) { return `(${at.x}, ${at.y})`.replace(/-/g, "\u2212"); }

function unitAt(at) { return view.table.field.find((u) => u.x === at.x && u.y === at.y); }

function squarePicker(values, pick) {
  const units = view.table.field;
  const squares = values.filter((v) => v && typeof v.x === "number");
  const xs = [...units.map((u) => u.x), ...squares.map((s) => s.x)];
  const ys = [...units.map((u) => u.y), ...squares.map((s) => s.y)];
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const colours = Object.fromEntries(view.table.sides.map((s) => [s.seat, s.colour]));
  const cells = [];
  for (let y = maxY; y >= minY; y -= 1) {
    for (let x = minX; x <= maxX; x += 1) {
      const at = {x, y};
      const unit = unitAt(at);
      const offered = squares.find((s) => s.x === x && s.y === y);
      const style = unit ? `background:${unit.face_up ? colours[unit.seat] : "#777777"}` : null;
      const words = unit ? [h("span", {}, unit.abbr), h("span", {}, squareText(at))] : [squareText(at)];
      const label = fmt(W.square_here, {square: squareText(at)}) +
        (unit ? ` \u2013 ${fmt(W.occupied_by, {unit: unit.name, who: nameOf(unit.seat)})}` : "");
      cells.push(offered
        ? h("button", {type: "button", class: `sq${unit ? " unit" : ""}`, style, "aria-label": label,
                       dataset: {x, y}, onclick: () => pick(offered)}, words)
        : h("div", {class: `sq${unit ? " unit" : ""}`, style, title: label, "aria-hidden": unit ? null : "true"},
            unit ? words : ""));
    }
  }
  return h("div", {class: "picker", role: "group", "aria-label": W.choose_square,
                   style: `grid-template-columns: repeat(${maxX - minX + 1}, auto)`}, cells);
}

const ARROWS = {N: "\u2191", E: "\u2192", S: "\u2193", W: "\u2190"};

function renderKhanAction() {
  const chooser = $("chooser");
  const parts = [];
  const T = view.table;
  const cancelButton = () => button(W.cancel, cancel, {class: "secondary"});
  const idle = idlePrompt(() => view.steps.some((c) => c.step.type !== "resign"));
  if (idle) {
    parts.push(h("p", {class: "prompt"}, idle));
  } else if (!choice) {
    parts.push(h("p", {class: "prompt"}, W.choose_kind));
    const types = distinct(view.steps.map((c) => c.step.type)).filter((t) => t !== "resign");
    parts.push(h("div", {class: "buttons"}, types.map((type) => {
      if (fieldsOf(type).length) {
        return button(W[`kind_${type}`] || type, () => choose({type}), {class: "option", dataset: {kind: type}});
      }
      return button(stepsOf(type)[0].label, () => choose({type}), {class: "option", dataset: {kind: type}});
    })));
  } else {
    const state = khanState();
    if (!state) { choice = null; return renderKhanAction(); }
    const sel = state.sel;
    if (state.done) {
      const chosen = state.done;
      parts.push(h("p", {class: "sentence"}, chosen.label));
      const buttons = [button(W.confirm, () => send([chosen.step]), {class: "primary"})];
      if (["deploy", "command", "pay"].includes(chosen.step.type) && stepsOf("end_action").length) {
        buttons.push(button(W.and_end_action, () => send([chosen.step, {type: "end_action"}])));
      }
      // Ending the engagements then the turn: one confirmation (the after-combat keywords, if any,
      // left unused, as "End the turn" leaves them); "Confirm" alone keeps them to use.
      if (chosen.step.type === "end_engagements" && stepsOf("end_turn").length) {
        buttons.unshift(button(W.and_end_turn, () => send([chosen.step, {type: "end_turn"}]), {class: "primary"}));
        buttons[1].className = "secondary";
      }
      buttons.push(cancelButton());
      parts.push(h("div", {class: "buttons"}, buttons));
    } else {
      const field = state.field;
      const what = sel.card ? khanCard(sel.card).name : "";
      if (field === "type") {
        parts.push(h("p", {class: "prompt"}, what));
        parts.push(optionButtons(state.values, (t) => W[`kind_${t}`] || t, (t) => choose({type: t})));
      } else if (field === "card") {
        const units = state.values.every((c) => khanCard(c).unit);
        parts.push(h("p", {class: "prompt"}, units ? W.choose_unit : W.choose_command));
        parts.push(optionButtons(state.values, (c) => khanCard(c).name, (c) => choose({card: c})));
      } else if (field === "at" || field === "to" || field === "target") {
        const moving = sel.at ? unitAt(sel.at) : null;
        const prompts = {deploy: {at: fmt(W.choose_square_for, {unit: what})},
                         command: {at: fmt(W.choose_unit_for, {card: what})},
                         move: {at: W.choose_unit_to_move, to: fmt(W.choose_where, {unit: moving ? moving.name : ""})},
                         engage: {target: W.choose_enemy}};
        parts.push(h("p", {class: "prompt"}, (prompts[sel.type] || {})[field] || W.choose_unit_on_field));
        parts.push(squarePicker(state.values, (at) => choose({[field]: at})));
      } else if (field === "facing") {
        parts.push(h("p", {class: "prompt"}, W.choose_facing));
        parts.push(optionButtons(["N", "E", "S", "W"].filter((f) => state.values.includes(f)),
                                 (f) => `${ARROWS[f]} ${T.facings[f]}`, (f) => choose({facing: f})));
      } else if (field === "sequence") {
        parts.push(h("p", {class: "prompt"}, W.choose_sequence));
        const mine = (T.sides.find((s) => s.seat === view.you) || {sequences: []}).sequences;
        parts.push(optionButtons(state.values, (n) => {
          if (n === undefined || n === null) return sel.type === "pay" ? W.new_sequence : W.no_sequence;
          const pile = mine.find((p) => p.number === n);
          return pile ? fmt(W.aside, {text: pile.label, detail: pile.shown}) : String(n);
        }, (n) => choose({sequence: n})));
      } else if (field === "attackers") {
        parts.push(h("p", {class: "prompt"}, W.choose_attackers));
        parts.push(optionButtons(state.values, (list) => list.map((at) => {
          const unit = unitAt(at);
          return `${unit ? unit.abbr : "?"} ${squareText(at)}`;
        }).join(" + "), (list) => choose({attackers: list})));
      }
      parts.push(h("div", {class: "buttons"}, cancelButton()));
    }
  }
  chooser.replaceChildren(...parts);
}

// ---------------------------------------------------------------- resigning, confirmed

$("resign").addEventListener("click", () => $("resign-dialog").showModal());
$("resign-dialog").addEventListener("close", () => {
  if ($("resign-dialog").returnValue === "resign") {
    const step = stepsOf("resign")[0];
    if (step) send([step.step]);
  }
  $("resign-dialog").returnValue = "";
});

// ---------------------------------------------------------------- the seat's private notes

async function notesCall(method, body) {
  const response = await fetch(notesUrl, {method, cache: "no-store", headers: {"Content-Type": "application/json"},
                                          body: body === undefined ? undefined : JSON.stringify(body)});
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.detail || answer.title || String(response.status));
  return answer;
}

async function loadNotes() {
  try {
    $("notes").value = (await notesCall("GET")).text;
    $("notes").disabled = false;
    $("notes-save").disabled = false;
  } catch (error) {
    $("notes-status").textContent = fmt(W.notes_refused, {reason: error.message});
  }
}

if (notesUrl) {
  $("notes-save").addEventListener("click", async () => {
    $("notes-save").disabled = true;
    $("notes-status").textContent = W.notes_saving;
    try {
      await notesCall("PUT", {text: $("notes").value});
      $("notes-status").textContent = W.notes_saved;
    } catch (error) {
      $("notes-status").textContent = fmt(W.notes_refused, {reason: error.message === "Failed to fetch" ? W.offline : error.message});
    }
    $("notes-save").disabled = false;
  });
  $("notes").addEventListener("input", () => { $("notes-status").textContent = ""; });
  loadNotes();
}

render();
schedule();
{% endraw %}
