//! ReduceWindow (spec/ops/reduce_window.md): `ReduceWindow(operand,
//! init_value, computation, window_dimensions, window_strides, padding,
//! base_dilations=, window_dilations=)`, single and variadic.
//!
//! Paths as for Reduce: a monoid comp runs the native window kernel
//! (kernels/reduce/window.rs); an elementwise comp runs once per window
//! position on whole arrays (gathered windows), then the tree levels; any
//! other comp is called per combination. All in the order of
//! kernels/reduce/order.rs.

pub mod grad;
use super::common::{contiguous, internal};
use super::reduce::{
    Path, arrays, choose_path, collate, generic_outputs, init_values, operands_and_inits,
    reduction_comp, scalar_of,
};
use super::registry::{Checked, OpDef, OpId};
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_check::literal::flatten;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_eval::comp::Monoid;
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::reduce::generic;
use xlet_kernels::reduce::monoid::{NativeMonoid, WithOp};
use xlet_kernels::reduce::native::ElemRows;
use xlet_kernels::reduce::order;
use xlet_kernels::reduce::window::{Geometry, WindowRows, reduce_window, same_padding};
use xlet_kernels::strided::{interrupt_error, interrupted};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../../spec/ops/reduce_window.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ReduceWindow,
    aliases: &[],
    signature: "ReduceWindow(operand, init_value, computation, window_dimensions, window_strides, padding[, base_dilations={...}, window_dilations={...}])",
    spec: SPEC,
    rule,
}];

/// Constraint labels of the window attributes, per op.
pub struct Labels {
    pub window_len: &'static str,
    pub window_pos: &'static str,
    pub strides_len: &'static str,
    pub strides_pos: &'static str,
    /// (length, positive) for base and window dilations; None: the op has none.
    pub dilations: Option<[(&'static str, &'static str); 2]>,
    pub padding: &'static str,
}

/// Where the window attributes sit in the call (positions; dilations by name only).
pub struct Places {
    pub window: usize,
    pub strides: usize,
    pub padding: usize,
}

/// A static list of one positive integer per operand dimension.
fn per_dim(
    cx: &mut CallCtx,
    pos: Option<usize>,
    name: &str,
    rank: usize,
    labels: (&str, &str),
    required: bool,
) -> Result<Vec<usize>, Diag> {
    let what = format!("operand dimension ({rank})");
    cx.positive_per_dim(pos, name, (rank, &what), labels, required)
}

enum Padding {
    Valid,
    Same,
    Pairs(Vec<(usize, usize)>),
}

fn attr_error(cx: &CallCtx, name: &str, wanted: &str, span: xlet_core::span::Span) -> Diag {
    Diag::check(
        cx.code("attr"),
        format!("{}: `{name}` must be {wanted}", cx.name()),
        span,
    )
    .with_label(format!("expected {wanted}"))
    .with_help(format!("{} is called as {}", cx.name(), cx.op.signature))
}

/// `padding`: SAME, VALID or `{{lo, hi}, ...}`; absent means VALID.
fn padding(cx: &mut CallCtx, pos: usize, rank: usize, c: &str) -> Result<Padding, Diag> {
    let Some(e) = cx.take(Some(pos), "padding")? else {
        return Ok(Padding::Valid);
    };
    let wanted = "SAME, VALID or a list of pairs such as {{0, 1}, {1, 0}}";
    let word = match &e.kind {
        ExprKind::Var(v) => Some(v.as_str()),
        ExprKind::Str(s) => Some(s.as_str()),
        _ => None,
    };
    if let Some(w) = word {
        return match w.to_ascii_uppercase().as_str() {
            "SAME" | "KSAME" => Ok(Padding::Same),
            "VALID" | "KVALID" => Ok(Padding::Valid),
            _ => Err(attr_error(cx, "padding", wanted, e.span.clone())),
        };
    }
    let flat = flatten(e).map_err(|_| attr_error(cx, "padding", wanted, e.span.clone()))?;
    let shape_ok = flat.dims == [rank, 2] || (rank == 0 && flat.is_empty());
    if !shape_ok {
        return Err(cx
            .err(
                c,
                format!(
                    "`padding` must be one pair {{lo, hi}} per operand dimension ({rank}), found a list of shape [{}]",
                    flat.dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
                ),
                e.span.clone(),
            )
            .with_label(format!("expected {rank} pairs")));
    }
    let mut vals = vec![];
    for (a, span) in flat.atoms() {
        let v = a.integer();
        match v {
            Some(v) if v >= 0 => vals.push(v as usize),
            Some(v) => {
                return Err(cx
                    .err(
                        c,
                        format!("padding counts must be at least 0, found {v}"),
                        span,
                    )
                    .with_label("negative padding"));
            }
            None if a.is_integer_text() => {
                return Err(cx
                    .err(
                        c,
                        "padding counts must be in the 64-bit integer range (at most 9223372036854775807)",
                        span,
                    )
                    .with_label("does not fit in 64 bits"));
            }
            None => return Err(attr_error(cx, "padding", wanted, e.span.clone())),
        }
    }
    Ok(Padding::Pairs(
        vals.chunks(2).map(|p| (p[0], p[1])).collect(),
    ))
}

/// Reads the window attributes of an operand of `dims` and works out the geometry.
pub fn window_geometry(
    cx: &mut CallCtx,
    dims: &[usize],
    at: &Places,
    l: &Labels,
) -> Result<Geometry, Diag> {
    let rank = dims.len();
    let window = per_dim(
        cx,
        Some(at.window),
        "window_dimensions",
        rank,
        (l.window_len, l.window_pos),
        true,
    )?;
    let strides = per_dim(
        cx,
        Some(at.strides),
        "window_strides",
        rank,
        (l.strides_len, l.strides_pos),
        false,
    )?;
    let pad = padding(cx, at.padding, rank, l.padding)?;
    let (base_dilations, window_dilations) = match l.dilations {
        Some([b, w]) => (
            per_dim(cx, None, "base_dilations", rank, b, false)?,
            per_dim(cx, None, "window_dilations", rank, w, false)?,
        ),
        None => (vec![1; rank], vec![1; rank]),
    };
    let padding = match pad {
        Padding::Valid => vec![(0, 0); rank],
        Padding::Pairs(p) => p,
        Padding::Same => (0..rank)
            .map(|d| {
                same_padding(
                    dims[d],
                    window[d],
                    strides[d],
                    base_dilations[d],
                    window_dilations[d],
                )
                .ok_or_else(|| cx.err("size", "the window is too large", cx.span.clone()))
            })
            .collect::<Result<_, _>>()?,
    };
    let g = Geometry {
        in_dims: dims.to_vec(),
        window,
        strides,
        base_dilations,
        window_dilations,
        padding,
    };
    if g.out_dims().is_none() || g.positions_checked().is_none() {
        return Err(cx
            .err(
                "size",
                "the window's sizes overflow 64-bit arithmetic",
                cx.span.clone(),
            )
            .with_label("too large"));
    }
    Ok(g)
}

const LABELS: Labels = Labels {
    window_len: "C5",
    window_pos: "C6",
    strides_len: "C7",
    strides_pos: "C8",
    dilations: Some([("C9", "C10"), ("C11", "C12")]),
    padding: "C13",
};

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `ReduceWindow(x, max, -inf, ...)`: the computation where the init value goes.
    cx.check_comp_not_swapped(1, 2)?;
    let types = operands_and_inits(cx)?;
    let elems: Vec<ElemType> = types.iter().map(|t| t.elem).collect();
    let comp = reduction_comp(cx, 2, &elems, "C14")?;
    let places = Places {
        window: 3,
        strides: 4,
        padding: 5,
    };
    let g = window_geometry(cx, &types[0].dims, &places, &LABELS)?;
    let out_dims = g.out_dims().unwrap_or_default();
    Ok(Checked {
        ty: super::reduce::results_type(&elems, &out_dims),
        kernel: Arc::new(ReduceWindowKernel {
            path: choose_path(&comp, &elems),
            comp,
            g,
            out_dims,
            elems,
        }),
    })
}

pub struct ReduceWindowKernel {
    path: Path,
    comp: Arc<Comp>,
    g: Geometry,
    out_dims: Vec<usize>,
    elems: Vec<ElemType>,
}

struct NativeWindow<'a, T> {
    g: &'a Geometry,
    x: &'a [T],
    init: T,
    out: &'a mut Vec<T>,
}

impl<T: Copy + Send + Sync> WithOp<T> for NativeWindow<'_, T> {
    type Out = Result<(), KernelError>;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out {
        reduce_window(self.g, self.x, self.init, &f, self.out)
    }
}

fn monoid_window<T: NativeMonoid>(
    g: &Geometry,
    x: &Nd<T>,
    init: &Array,
    op: Monoid,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let init = scalar_of::<T>(init)?;
    let x = contiguous(x.clone())?;
    let xs = x
        .as_slice()
        .ok_or_else(|| internal("window operand layout"))?;
    let m: usize = out_dims.iter().product();
    let mut out: Vec<T> = alloc::try_output_vec(m, &"the window reduction's result")?;
    out.resize(m, init);
    let g1 = g.at_least_rank1();
    T::with_op(
        op,
        NativeWindow {
            g: &g1,
            x: xs,
            init,
            out: &mut out,
        },
    )
    .ok_or_else(|| internal("no native kernel for this monoid"))??;
    Nd::from_shape_vec(IxDyn(out_dims), out)
        .map(T::wrap)
        .map_err(|_| internal("window output size"))
}

/// Window position `k` of every output, as an array of the output's shape
/// (the init value where the position is padding).
fn gather_nd<T: Elem + Copy + Sync>(
    g: &Geometry,
    x: &Nd<T>,
    init: &Array,
    k: usize,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let init = scalar_of::<T>(init)?;
    let x = contiguous(x.clone())?;
    let xs = x
        .as_slice()
        .ok_or_else(|| internal("window operand layout"))?;
    let g1 = g.at_least_rank1();
    let od = g1.out_dims().ok_or_else(|| internal("window size"))?;
    let m: usize = od.iter().product();
    let ow = od.last().copied().unwrap_or(1).max(1);
    let mut out: Vec<T> = alloc::try_output_vec(m, &"a gathered window position")?;
    out.resize(m, init);
    let outer_dims = &od[..od.len() - 1];
    let mut outer = vec![0usize; outer_dims.len()];
    for (r, row) in out.chunks_mut(ow).enumerate() {
        let mut q = r;
        for d in (0..outer_dims.len()).rev() {
            outer[d] = q % outer_dims[d];
            q /= outer_dims[d];
        }
        WindowRows {
            g: &g1,
            x: xs,
            init,
            outer: &outer,
        }
        .load(k, 0, row);
    }
    Nd::from_shape_vec(IxDyn(out_dims), out)
        .map(T::wrap)
        .map_err(|_| internal("window output size"))
}

/// An array of `out_dims` holding the init value everywhere (what a window
/// position that is padding for every output gathers).
fn filled_nd<T: Elem + Copy>(
    _like: &Nd<T>,
    init: &Array,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let init = scalar_of::<T>(init)?;
    let m: usize = out_dims.iter().product();
    let mut out: Vec<T> = alloc::try_output_vec(m, &"a window position of padding")?;
    out.resize(m, init);
    Nd::from_shape_vec(IxDyn(out_dims), out)
        .map(T::wrap)
        .map_err(|_| internal("window output size"))
}

/// The window positions (row-major) that may read an operand element for some
/// output: every position outside the range is padding for every output.
fn live_positions(g: &Geometry) -> std::ops::Range<usize> {
    let Some(od) = g.out_dims() else {
        return 0..g.positions();
    };
    let (mut first, mut last) = (0usize, 0usize);
    for d in 0..g.in_dims.len() {
        if od[d] == 0 {
            return 0..0;
        }
        let k = g.live_window(d, 0, od[d] - 1);
        if k.is_empty() {
            return 0..0;
        }
        first = first * g.window[d] + k.start;
        last = last * g.window[d] + (k.end - 1);
    }
    first..last + 1
}

impl Kernel for ReduceWindowKernel {
    fn computations(&self) -> Vec<Arc<Comp>> {
        vec![self.comp.clone()]
    }
    /// Add, max and min windows of one operand (spec/grad.md §4.6).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::reduce_window::grad::rule(cx, &self.comp, &self.g)
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let all = arrays(args)?;
        let k = self.elems.len();
        if all.len() != 2 * k {
            return Err(internal("ReduceWindow got the wrong number of arguments"));
        }
        let (xs, inits) = all.split_at(k);
        let n = self.g.positions();
        let m: usize = self.out_dims.iter().product();
        let outs: Vec<Array> = match &self.path {
            Path::Monoid(op) => vec![
                with_array!(&xs[0], a => monoid_window(&self.g, a, &inits[0], *op, &self.out_dims))?,
            ],
            Path::Vectorized(v) => {
                if m == 0 {
                    return Ok(collate(empty_outputs(&self.elems, &self.out_dims)?));
                }
                let mut get = |p: usize| -> Result<Vec<Array>, KernelError> {
                    // One whole-array step per window position: Ctrl-C between them.
                    if interrupted() {
                        return Err(interrupt_error());
                    }
                    xs.iter()
                        .zip(inits)
                        .map(|(x, i)| with_array!(x, a => gather_nd(&self.g, a, i, p, &self.out_dims)))
                        .collect()
                };
                let mut f = |a: Vec<Array>, b: Vec<Array>| -> Result<Vec<Array>, KernelError> {
                    let args: Vec<Array> = a.into_iter().chain(b).collect();
                    v.run(&args)
                };
                // Window positions that are padding for every output are not
                // visited (a huge window over SAME padding): their blocks' trees
                // come from the init values by doubling, with the same bits.
                let pad: Vec<Array> = xs
                    .iter()
                    .zip(inits)
                    .map(|(x, i)| with_array!(x, a => filled_nd(a, i, &self.out_dims)))
                    .collect::<Result<_, _>>()?;
                let live = live_positions(&self.g.at_least_rank1());
                order::reduce_skipping(n, inits.to_vec(), (live, &pad), &mut get, &mut f)?
            }
            Path::Generic => {
                let contig: Vec<Array> = xs
                    .iter()
                    .map(xlet_kernels::reduce::vectorized::standard)
                    .collect::<Result<_, _>>()?;
                let init_vals = init_values(inits);
                let r = self.out_dims.len();
                let mut idx = vec![0usize; r];
                let mut scratch = vec![0usize; r];
                let mut elem = |o: usize, t: usize| -> Result<Vec<Value>, KernelError> {
                    let mut q = o;
                    for d in (0..r).rev() {
                        idx[d] = q % self.out_dims[d];
                        q /= self.out_dims[d];
                    }
                    match self.g.source_offset(&idx, t, &mut scratch) {
                        Some(off) => contig.iter().map(|a| generic::scalar_at(a, off)).collect(),
                        None => Ok(init_vals.clone()),
                    }
                };
                let comp = (cx, &self.comp);
                generic_outputs(comp, &init_vals, &self.elems, &self.out_dims, n, &mut elem)?
            }
        };
        Ok(collate(outs))
    }
}

fn empty_outputs(elems: &[ElemType], dims: &[usize]) -> Result<Vec<Array>, KernelError> {
    let no: Vec<Vec<Value>> = vec![];
    elems
        .iter()
        .enumerate()
        .map(|(i, &e)| generic::assemble(&no, i, e, dims))
        .collect()
}
