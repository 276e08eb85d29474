//! Coalescing the output's dimensions, and walking the output in row-major
//! order a run of the innermost dimension at a time.

use std::mem::MaybeUninit;

/// Dimensions after coalescing, with each operand's strides; the last one is the inner run.
pub(super) struct Plan<const N: usize> {
    pub(super) dims: Vec<usize>,
    pub(super) strides: [Vec<isize>; N],
}

pub(super) fn plan<const N: usize>(out_dims: &[usize], strides: [&[isize]; N]) -> Plan<N> {
    let (dims, st) = plan_dyn(out_dims, &strides);
    let mut st = st.into_iter();
    Plan {
        dims,
        strides: std::array::from_fn(|_| st.next().unwrap_or_default()),
    }
}

/// Coalesced dimensions and each operand's strides over them (see `Plan`).
pub fn plan_dyn(out_dims: &[usize], strides: &[&[isize]]) -> (Vec<usize>, Vec<Vec<isize>>) {
    // Walk from the minor dimension outwards, skipping size-1 dims and merging a dim
    // into the run inside it when every operand steps through both as one.
    let n = strides.len();
    let mut dims: Vec<usize> = Vec::new();
    let mut st: Vec<Vec<isize>> = vec![Vec::new(); n];
    for d in (0..out_dims.len()).rev() {
        let size = out_dims[d];
        if size == 1 {
            continue;
        }
        if let Some(&inner) = dims.last() {
            let k = dims.len() - 1;
            let mergeable = (0..n).all(|o| strides[o][d] == st[o][k] * inner as isize);
            if mergeable {
                dims[k] = inner * size;
                continue;
            }
        }
        dims.push(size);
        for o in 0..n {
            st[o].push(strides[o][d]);
        }
    }
    if dims.is_empty() {
        dims.push(1);
        for s in st.iter_mut() {
            s.push(0);
        }
    }
    dims.reverse();
    for s in st.iter_mut() {
        s.reverse();
    }
    (dims, st)
}

/// Walks the outer dimensions of a plan, keeping each operand's offset of the current row.
struct Cursor<const N: usize> {
    idx: Vec<usize>,
    offs: [isize; N],
}

impl<const N: usize> Cursor<N> {
    /// The cursor at row `row` (a flat index over the outer dims).
    fn at(plan: &Plan<N>, mut row: usize) -> Self {
        let outer = plan.dims.len() - 1;
        let mut idx = vec![0usize; outer];
        let mut offs = [0isize; N];
        for d in (0..outer).rev() {
            let i = row % plan.dims[d];
            row /= plan.dims[d];
            idx[d] = i;
            for (o, off) in offs.iter_mut().enumerate() {
                *off += i as isize * plan.strides[o][d];
            }
        }
        Cursor { idx, offs }
    }

    fn next_row(&mut self, plan: &Plan<N>) {
        for d in (0..self.idx.len()).rev() {
            self.idx[d] += 1;
            for o in 0..N {
                self.offs[o] += plan.strides[o][d];
            }
            if self.idx[d] < plan.dims[d] {
                return;
            }
            for o in 0..N {
                self.offs[o] -= plan.strides[o][d] * plan.dims[d] as isize;
            }
            self.idx[d] = 0;
        }
    }
}

/// Fills `chunk`, the output elements `start..start + chunk.len()` in row-major
/// order, by calling `run(out_slice, offsets, inner_strides)` on each inner run.
pub(super) fn walk_runs<O, const N: usize>(
    plan: &Plan<N>,
    start: usize,
    chunk: &mut [MaybeUninit<O>],
    run: &impl Fn(&mut [MaybeUninit<O>], [isize; N], [isize; N]),
) {
    let inner = *plan.dims.last().unwrap_or(&1);
    let inner_strides: [isize; N] = std::array::from_fn(|o| *plan.strides[o].last().unwrap_or(&0));
    let mut cur = Cursor::at(plan, start / inner);
    let mut col = start % inner;
    let mut done = 0;
    while done < chunk.len() {
        let len = (inner - col).min(chunk.len() - done);
        let offs: [isize; N] =
            std::array::from_fn(|o| cur.offs[o] + col as isize * inner_strides[o]);
        run(&mut chunk[done..done + len], offs, inner_strides);
        done += len;
        col += len;
        if col == inner {
            col = 0;
            cur.next_row(plan);
        }
    }
}
