// Three SharedArrayBuffers made at one allocation site (line 6), each element 0 written and read: selecting the
// site's offset 0 (`FILE:6:…+0/4` in a locations file) jumbles all three instances, `sab#B+0` only one.
//   node test/programs/jumble/instances.mjs   → sum 6
const cells = [];
for (let k = 0; k < 3; k++) {
  const cell = new Int32Array(new SharedArrayBuffer(8));
  cell[0] = k + 1;
  cells.push(cell);
}
console.log(`sum ${cells.reduce((s, c) => s + c[0], 0)}`);
