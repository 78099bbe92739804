/** Cycles among group parents (a hierarchy is a DAG). */
/** Each elementary cycle found by a depth-first walk over child -> parent edges, once. */
export function findCycles(parentsOf: number[][]): number[][] {
  const state = new Array<number>(parentsOf.length).fill(0); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  const cycles: number[][] = [];
  const seenCycles = new Set<string>();
  const visit = (node: number) => {
    state[node] = 1;
    stack.push(node);
    for (const parent of parentsOf[node] ?? []) {
      if (state[parent] === 1) {
        const cycle = stack.slice(stack.indexOf(parent));
        const key = [...cycle].sort((a, b) => a - b).join(',');
        if (!seenCycles.has(key)) {
          seenCycles.add(key);
          cycles.push(cycle);
        }
      } else if (state[parent] === 0) {
        visit(parent);
      }
    }
    stack.pop();
    state[node] = 2;
  };
  for (let node = 0; node < parentsOf.length; node++) if (state[node] === 0) visit(node);
  return cycles;
}
