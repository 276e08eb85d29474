//! SelectAndScatter (spec/ops/select_and_scatter.md): `SelectAndScatter(operand,
//! select, window_dimensions, window_strides, padding, source, init_value,
//! scatter)`.
//!
//! One loop (kernels/reduce/scatter.rs) serves both paths: with a select comp
//! that is the default comparison Ge/Gt/Le/Lt of its parameters and scatter =
//! add it gets native closures and runs in parallel over independent slices;
//! otherwise its closures call the comps.

use super::common::{contiguous, internal};
use super::reduce::scalar_of;
use super::reduce_window::{Labels, Places, window_geometry};
use super::registry::{Checked, OpDef, OpId};
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, CastFrom, Elem, Nd, Value};
use xlet_core::{with_array, with_real_array, with_real_elem_type};
use xlet_eval::comp::{self, Monoid, Vectorized};
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::reduce::scatter::{run_parallel, run_serial};
use xlet_kernels::reduce::window::Geometry;
use xlet_kernels::strided::{interrupt_error, interrupted};

const SPEC: &str = include_str!("../../../spec/ops/select_and_scatter.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::SelectAndScatter,
    aliases: &[],
    signature: "SelectAndScatter(operand, select, window_dimensions, window_strides, padding, source, init_value, scatter)",
    spec: SPEC,
    rule,
}];

const LABELS: Labels = Labels {
    window_len: "C4",
    window_pos: "C5",
    strides_len: "C6",
    strides_pos: "C7",
    dilations: None,
    padding: "C8",
};

/// A native selection: the default comparison of the element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Ge,
    Gt,
    Le,
    Lt,
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // The scatter computation where the init value goes (the last two swapped).
    cx.check_comp_not_swapped(6, 7)?;
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let s = cx.operand(5, "source")?;
    let st = cx.array(&s, "C1", "source")?.clone();
    if st.elem != t.elem {
        return Err(cx
            .err(
                "C2",
                format!(
                    "source must have the operand's element type {}, found {}",
                    t.elem, st
                ),
                s.span.clone(),
            )
            .with_label(format!("{st}"))
            .with_secondary(o.span.clone(), format!("{t}")));
    }
    let init_e = cx.require(Some(6), "init_value")?;
    let init = cx.push_operand(init_e, Some(t.elem))?;
    if !init
        .ty
        .as_array()
        .is_some_and(|a| a.dims.is_empty() && a.elem == t.elem)
    {
        return Err(cx
            .err(
                "C3",
                format!("init_value must be a scalar {}, found {}", t.elem, init.ty),
                init.span.clone(),
            )
            .with_label(format!("{}", init.ty)));
    }
    let scalar = Type::scalar(t.elem);
    let pred = Type::scalar(ElemType::Pred);
    let select = cx
        .computation(
            Some(1),
            "select",
            &[scalar.clone(), scalar.clone()],
            Some(&pred),
            "C9",
        )?
        .value;
    let scatter = cx
        .computation(
            Some(7),
            "scatter",
            &[scalar.clone(), scalar.clone()],
            Some(&scalar),
            "C10",
        )?
        .value;
    let places = Places {
        window: 2,
        strides: 3,
        padding: 4,
    };
    let g = window_geometry(cx, &t.dims, &places, &LABELS)?;
    let grid = g.out_dims().unwrap_or_default();
    if st.dims != grid {
        return Err(cx
            .err(
                "C11",
                format!(
                    "source must have the shape of the window grid, {}, found {}",
                    Type::array(t.elem, grid.clone()),
                    st
                ),
                s.span.clone(),
            )
            .with_label(format!("{st}"))
            .with_note(format!(
                "the windows over {t} give a grid of [{}]: per dimension (padded size - window) / stride + 1",
                grid.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
            )));
    }
    let fast =
        native_select(&select, t.elem).filter(|_| comp::monoid(&scatter) == Some(Monoid::Add));
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(SelectAndScatterKernel {
            g,
            select,
            scatter,
            fast,
            elem: t.elem,
        }),
    })
}

/// The element comparison of `c` on T (the compare ops' default for the type).
fn cmp_fn<T: PartialOrd>(c: Cmp) -> impl Fn(T, T) -> bool + Copy + Sync {
    move |a: T, b: T| match c {
        Cmp::Ge => a >= b,
        Cmp::Gt => a > b,
        Cmp::Le => a <= b,
        Cmp::Lt => a < b,
    }
}

/// Pairs on which the compare ops' types differ (signed zeros, NaN, infinities,
/// signs): a comparison `type=` other than the default disagrees on one of them.
fn probes<T: Elem + CastFrom<f64>>() -> Vec<(T, T)> {
    let v: Vec<T> = [
        -0.0,
        0.0,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        -f64::INFINITY,
        -1.0,
        1.0,
        2.0,
    ]
    .iter()
    .map(|&x| T::cast_from(x))
    .collect();
    v.iter()
        .flat_map(|&a| v.iter().map(move |&b| (a, b)))
        .collect()
}

fn agrees<T: Elem + PartialOrd + CastFrom<f64>>(v: &Vectorized, c: Cmp) -> Option<()> {
    let ps = probes::<T>();
    let a: Vec<T> = ps.iter().map(|p| p.0).collect();
    let b: Vec<T> = ps.iter().map(|p| p.1).collect();
    let n = ps.len();
    let args = [
        T::wrap(Nd::from_shape_vec(IxDyn(&[n]), a).ok()?),
        T::wrap(Nd::from_shape_vec(IxDyn(&[n]), b).ok()?),
    ];
    let out = v.run(&args).ok()?;
    let got = out.first()?.to_vec::<bool>();
    let f = cmp_fn::<T>(c);
    ps.iter()
        .zip(&got)
        .all(|(&(x, y), &g)| f(x, y) == g)
        .then_some(())
}

/// `select` as a native comparison: one Ge/Gt/Le/Lt of its parameters (swapped
/// is the mirrored comparison), confirmed to be the element type's default
/// comparison by running its compiled form on probe pairs.
fn native_select(select: &Comp, elem: ElemType) -> Option<Cmp> {
    let (id, swapped) = comp::binary_op(select)?;
    let c = match (id, swapped) {
        (OpId::Ge, false) | (OpId::Le, true) => Cmp::Ge,
        (OpId::Gt, false) | (OpId::Lt, true) => Cmp::Gt,
        (OpId::Le, false) | (OpId::Ge, true) => Cmp::Le,
        (OpId::Lt, false) | (OpId::Gt, true) => Cmp::Lt,
        _ => return None,
    };
    let v = Vectorized::compile(select)?;
    with_real_elem_type!(elem, T => agrees::<T>(&v, c), complex => None)?;
    Some(c)
}

pub struct SelectAndScatterKernel {
    g: Geometry,
    select: Arc<Comp>,
    scatter: Arc<Comp>,
    fast: Option<Cmp>,
    elem: ElemType,
}

/// The native loop: a default comparison and an add (the element function of
/// the Add op on T).
trait NativeAdd: Elem + Copy + Send + Sync + PartialOrd {
    fn add(a: Self, b: Self) -> Self;
}
macro_rules! native_add {
    (wrap: $($t:ty),*) => {$( impl NativeAdd for $t { fn add(a: $t, b: $t) -> $t { a.wrapping_add(b) } } )*};
    (plain: $($t:ty),*) => {$( impl NativeAdd for $t { fn add(a: $t, b: $t) -> $t { a + b } } )*};
}
native_add!(wrap: i8, i16, i32, i64, u8, u16, u32, u64);
native_add!(plain: half::f16, half::bf16, f32, f64);
impl NativeAdd for bool {
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
}

fn prepare<T: Elem + Copy>(
    x: &Nd<T>,
    src: &Array,
    init: &Array,
) -> Result<(Nd<T>, Nd<T>, T, Vec<T>), KernelError> {
    let init = scalar_of::<T>(init)?;
    let x = contiguous(x.clone())?;
    let s = contiguous(
        T::unwrap(src)
            .ok_or_else(|| internal("source of an unexpected type"))?
            .clone(),
    )?;
    let mut out: Vec<T> = alloc::try_output_vec(x.len(), &"the scattered result")?;
    out.resize(x.len(), init);
    Ok((x, s, init, out))
}

fn finish<T: Elem>(dims: &[usize], out: Vec<T>) -> Result<Value, KernelError> {
    Nd::from_shape_vec(IxDyn(dims), out)
        .map(|a| Value::Array(T::wrap(a)))
        .map_err(|_| internal("SelectAndScatter output size"))
}

fn native<T: NativeAdd>(
    g: &Geometry,
    c: Cmp,
    x: &Nd<T>,
    src: &Array,
    init: &Array,
) -> Result<Value, KernelError> {
    let (x, s, _, mut out) = prepare(x, src, init)?;
    let (xs, ss) = (slices(&x)?, slices(&s)?);
    let g1 = g.at_least_rank1();
    let add = |a: T, b: T| T::add(a, b);
    match c {
        Cmp::Ge => run_parallel(&g1, xs, ss, &mut out, &cmp_fn::<T>(Cmp::Ge), &add)?,
        Cmp::Gt => run_parallel(&g1, xs, ss, &mut out, &cmp_fn::<T>(Cmp::Gt), &add)?,
        Cmp::Le => run_parallel(&g1, xs, ss, &mut out, &cmp_fn::<T>(Cmp::Le), &add)?,
        Cmp::Lt => run_parallel(&g1, xs, ss, &mut out, &cmp_fn::<T>(Cmp::Lt), &add)?,
    }
    finish(x.shape(), out)
}

fn slices<T>(a: &Nd<T>) -> Result<&[T], KernelError> {
    a.as_slice()
        .ok_or_else(|| internal("SelectAndScatter operand layout"))
}

fn scalar_value<T: Elem>(v: T) -> Value {
    Value::Array(T::wrap(Nd::from_elem(IxDyn(&[]), v)))
}

fn generic_nd<T: Elem + Copy>(
    k: &SelectAndScatterKernel,
    x: &Nd<T>,
    src: &Array,
    init: &Array,
    cx: &dyn EvalCx,
) -> Result<Value, KernelError> {
    let (x, s, _, mut out) = prepare(x, src, init)?;
    let (xs, ss) = (slices(&x)?, slices(&s)?);
    let g1 = k.g.at_least_rank1();
    let mut select = |a: T, b: T| -> Result<bool, KernelError> {
        let r = cx.call_comp(&k.select, &[scalar_value(a), scalar_value(b)])?;
        r.as_array()
            .and_then(|a| bool::unwrap(a).and_then(|p| p.iter().next().copied()))
            .ok_or_else(|| internal("select returned a value that is not a pred scalar"))
    };
    let mut scatter = |a: T, b: T| -> Result<T, KernelError> {
        let r = cx.call_comp(&k.scatter, &[scalar_value(a), scalar_value(b)])?;
        r.as_array()
            .and_then(|a| T::unwrap(a).and_then(|p| p.iter().next().copied()))
            .ok_or_else(|| internal("scatter returned a value of another type"))
    };
    let check = || {
        if interrupted() {
            Err(interrupt_error())
        } else {
            Ok(())
        }
    };
    run_serial(&g1, xs, ss, &mut out, &mut select, &mut scatter, &check)?;
    finish(x.shape(), out)
}

impl Kernel for SelectAndScatterKernel {
    fn computations(&self) -> Vec<Arc<Comp>> {
        vec![self.select.clone(), self.scatter.clone()]
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(x), Value::Array(src), Value::Array(init)] = args else {
            return Err(internal(
                "SelectAndScatter expects operand, source and init value",
            ));
        };
        if x.elem() != self.elem {
            return Err(internal("SelectAndScatter operand of an unexpected type"));
        }
        match self.fast {
            Some(c) => {
                with_real_array!(x, a => native(&self.g, c, a, src, init), complex => Err(internal("native select of complex")))
            }
            None => with_array!(x, a => generic_nd(self, a, src, init, cx)),
        }
    }
}
