// Patches: the server sends each connection what changed since the last message it sent that
// connection's room (docs/protocol.md, "patch"). Pure functions, no DOM, no socket: the
// connection module feeds them the last message and the patch, and asks for a snapshot on a gap.
//
// A patch is {seq, base, version, ops}. It applies only to the message numbered `base`; each op
// is [path] (delete the key at path) or [path, value] (set it), path being a list of object keys
// and array indexes from the message's root ([] replaces the whole message). An array grows by
// setting the index after its last element and shrinks by deleting elements (splice: the later
// ones move down).

/** True when the patch cannot be applied to `last` (a missed message, or none yet). */
export function isGap(last, patch) {
  return !last || typeof last.seq !== "number" || patch.base !== last.seq;
}

/**
 * The message `ops` make of `doc`. `doc` is left as it was: what changed is copied, the rest
 * shared. Each object or array on the way to a change is copied once per patch, however many of
 * the patch's ops pass through it (a round's reveal changes dozens of places under one board).
 */
export function applyPatch(doc, ops) {
  const fresh = new Set(); // the copies made for this patch: further ops change them in place
  let root = doc;
  for (const op of ops) {
    const path = op[0];
    root = path.length === 0 ? op[1] : setIn(root, path, 0, op, fresh);
  }
  return root;
}

function setIn(node, path, i, op, fresh) {
  let copy = node;
  if (!fresh.has(node)) {
    copy = Array.isArray(node) ? node.slice() : { ...node };
    fresh.add(copy);
  }
  const key = path[i];
  if (i < path.length - 1) {
    copy[key] = setIn(copy[key], path, i + 1, op, fresh);
  } else if (op.length === 1) {
    if (Array.isArray(copy)) copy.splice(key, 1);
    else delete copy[key];
  } else {
    copy[key] = op[1];
  }
  return copy;
}

/**
 * Take one patch: hand the rebuilt message to `take`, or call `resync` (ask for a snapshot)
 * when the patch does not follow the last message this page has.
 */
export function onPatch(patch, last, take, resync) {
  if (last && typeof last.seq === "number" && patch.seq <= last.seq) return; // an older copy
  if (isGap(last, patch)) {
    resync();
    return;
  }
  take(applyPatch(last, patch.ops));
}
