// A tiny text adventure: find the key, open the vault, get out alive.
// Commands: go <dir>, take <item>, drop <item>, use <item>, look, inventory, quit.
"use strict";

const readline = require("readline");

const rooms = {
  hall: {
    text: "A dusty entrance hall. Doors lead north and east.",
    exits: { north: "library", east: "kitchen" },
    items: ["lamp"],
  },
  library: {
    text: "Shelves of rotting books. Something glints under a desk.",
    exits: { south: "hall", east: "study" },
    items: ["key"],
    dark: true,
  },
  kitchen: {
    text: "Pots hang from hooks. A cold draught comes from the stairs down.",
    exits: { west: "hall", down: "cellar" },
    items: ["bread"],
  },
  study: {
    text: "A heavy vault door fills the east wall.",
    exits: { west: "library" },
    items: [],
    locked: "east",
  },
  cellar: {
    text: "Damp and quiet. Rats watch you from the corners.",
    exits: { up: "kitchen" },
    items: ["rope"],
  },
  vault: {
    text: "Gold! And a window you can climb out of.",
    exits: { west: "study" },
    items: ["gold"],
  },
};

const state = { room: "hall", inventory: [], moves: 0, done: false };

function say(msg) {
  process.stdout.write(msg + "\n");
}

function describe() {
  const room = rooms[state.room];
  if (room.dark && !state.inventory.includes("lamp")) {
    say("It is pitch dark. You might trip over something.");
    return;
  }
  say(room.text);
  if (room.items.length > 0) say("You see: " + room.items.join(", ") + ".");
  say("Exits: " + Object.keys(room.exits).join(", ") + ".");
}

function go(dir) {
  const room = rooms[state.room];
  if (room.locked === dir) {
    say("The vault door is locked.");
    return;
  }
  const next = room.exits[dir];
  if (!next) {
    say("You can't go that way.");
    return;
  }
  state.room = next;
  state.moves++;
  describe();
}

function take(item) {
  const room = rooms[state.room];
  const i = room.items.indexOf(item);
  if (i < 0 || (room.dark && !state.inventory.includes("lamp"))) {
    say("There is no " + item + " here.");
    return;
  }
  room.items.splice(i, 1);
  state.inventory.push(item);
  say("Taken.");
  if (item === "gold") {
    say("You climb out of the window with the gold. You win in " + state.moves + " moves!");
    state.done = true;
  }
}

function drop(item) {
  const i = state.inventory.indexOf(item);
  if (i < 0) return say("You don't have that.");
  state.inventory.splice(i, 1);
  rooms[state.room].items.push(item);
  say("Dropped.");
}

function use(item) {
  if (!state.inventory.includes(item)) return say("You don't have that.");
  const room = rooms[state.room];
  if (item === "key" && room.locked) {
    room.exits[room.locked] = "vault";
    delete room.locked;
    say("The key turns with a groan. The vault is open.");
  } else if (item === "bread") {
    state.inventory.splice(state.inventory.indexOf("bread"), 1);
    say("You eat the bread. You feel better.");
  } else {
    say("Nothing happens.");
  }
}

function handle(line) {
  const [verb, ...rest] = line.trim().toLowerCase().split(/\s+/);
  const arg = rest.join(" ");
  switch (verb) {
    case "go": return go(arg);
    case "n": case "s": case "e": case "w": case "up": case "down":
      return go({ n: "north", s: "south", e: "east", w: "west" }[verb] || verb);
    case "take": return take(arg);
    case "drop": return drop(arg);
    case "use": return use(arg);
    case "look": return describe();
    case "inventory": case "i":
      return say(state.inventory.length ? "You carry: " + state.inventory.join(", ") : "You carry nothing.");
    case "quit": state.done = true; return say("Bye.");
    case "": return undefined;
    default: return say("I don't understand " + JSON.stringify(verb) + ".");
  }
}

const rl = readline.createInterface({ input: process.stdin });
describe();
rl.on("line", (line) => {
  handle(line);
  if (state.done) rl.close();
});
