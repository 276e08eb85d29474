//! What scatter's checking rule fixed for its kernel and its gradient rule.

use crate::index_dims::{IndexSpace, row_major, step};
use xlet_core::alloc;
use xlet_ir::KernelError;
use xlet_kernels::strided::{interrupt_error, interrupted};

#[derive(Clone, Debug)]
pub struct Plan {
    pub space: IndexSpace,
    pub operand_dims: Vec<usize>,
    pub update_dims: Vec<usize>,
    /// Updates dimensions that are window dimensions, ascending.
    pub window_dims: Vec<usize>,
    /// The operand dimension each window dimension updates.
    pub kept: Vec<usize>,
    /// Updates dimensions that are scatter dimensions, ascending.
    pub scatter_dims: Vec<usize>,
    /// The window's extent in every operand dimension (1 where inserted or batching).
    pub extent: Vec<usize>,
}

impl Plan {
    pub fn new(
        space: IndexSpace,
        operand_dims: Vec<usize>,
        update_dims: Vec<usize>,
        window_dims: Vec<usize>,
        kept: Vec<usize>,
    ) -> Plan {
        let scatter_dims = (0..update_dims.len())
            .filter(|d| !window_dims.contains(d))
            .collect();
        let mut extent = vec![1; operand_dims.len()];
        for (&u, &d) in window_dims.iter().zip(&kept) {
            extent[d] = update_dims[u];
        }
        Plan {
            space,
            operand_dims,
            update_dims,
            window_dims,
            kept,
            scatter_dims,
            extent,
        }
    }

    /// Calls `f(target, source)` for every update element whose window fits,
    /// in the spec's order: flat offsets into the row-major result and updates.
    pub fn for_each(
        &self,
        idx: &[i64],
        f: &mut dyn FnMut(usize, usize) -> Result<(), KernelError>,
    ) -> Result<(), KernelError> {
        let os = row_major(&self.operand_dims);
        let us = row_major(&self.update_dims);
        let wdims: Vec<usize> = self
            .window_dims
            .iter()
            .map(|&u| self.update_dims[u])
            .collect();
        let nw: usize = wdims.iter().product();
        if nw == 0 {
            // Empty windows: nothing to apply (and the batch may be vast).
            return Ok(());
        }
        let mut window: Vec<(usize, usize)> =
            alloc::try_output_vec(nw, &"Scatter's window offsets")?;
        let mut pos = vec![0usize; wdims.len()];
        for _ in 0..nw {
            let o = pos.iter().zip(&self.kept).map(|(&p, &d)| p * os[d]).sum();
            let u = pos
                .iter()
                .zip(&self.window_dims)
                .map(|(&p, &d)| p * us[d])
                .sum();
            window.push((o, u));
            step(&mut pos, &wdims);
        }
        let bdims = self.space.batch_dims();
        let nb: usize = bdims.iter().product();
        let mut bpos = vec![0usize; bdims.len()];
        let mut start = vec![0i64; self.operand_dims.len()];
        for b in 0..nb {
            if b % 1024 == 0 && interrupted() {
                return Err(interrupt_error());
            }
            self.space.starts(idx, &bpos, &mut start);
            let fits = start
                .iter()
                .zip(&self.extent)
                .zip(&self.operand_dims)
                .all(|((&s, &e), &n)| s >= 0 && (s as u64).saturating_add(e as u64) <= n as u64);
            if fits {
                let ob: usize = start.iter().zip(&os).map(|(&s, &st)| s as usize * st).sum();
                let ub: usize = bpos
                    .iter()
                    .zip(&self.scatter_dims)
                    .map(|(&p, &d)| p * us[d])
                    .sum();
                for &(o, u) in &window {
                    f(ob + o, ub + u)?;
                }
            }
            step(&mut bpos, &bdims);
        }
        Ok(())
    }
}
