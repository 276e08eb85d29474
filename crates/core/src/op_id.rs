//! Typed operation ids: the one name of each operation, as a value. Code that
//! reacts to *which* op it holds (a monoid recognised in a comp, a gradient
//! rule, the fused engine) matches an `OpId`, never the op's text. The ids say
//! nothing about what an op does: the op itself, its checking rule, kernel and
//! gradient live in its family crate and plug in through the op table.
//!
//! A new op adds its id here (kept in alphabetical order), then its module.

use std::fmt;

macro_rules! op_ids {
    ($($id:ident)*) => {
        /// One XLA operation, by its canonical name (spec/ops/<name>.md).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OpId {
            $($id,)*
        }

        impl OpId {
            /// Every id, in alphabetical order.
            pub const ALL: &'static [OpId] = &[$(OpId::$id,)*];

            /// The canonical name, as in the docs and in spec/ops/.
            pub const fn name(self) -> &'static str {
                match self {
                    $(OpId::$id => stringify!($id),)*
                }
            }

            /// The id whose canonical name is exactly `name` (case and aliases
            /// are the op table's business, not this).
            pub fn from_name(name: &str) -> Option<OpId> {
                match name {
                    $(stringify!($id) => Some(OpId::$id),)*
                    _ => None,
                }
            }
        }
    };
}

op_ids! {
    Abs Add AllGather AllReduce AllToAll And
    Atan2 BatchNormGrad BatchNormInference BatchNormTraining BitcastConvertType Broadcast
    BroadcastInDim Call Cbrt Ceil Cholesky Clamp Clz
    Collapse CollectivePermute Complex CompositeCall Concatenate Conditional Conv ConvGeneralDilated
    ConvWithGeneralPadding ConvertElementType Cos CrossReplicaSum CustomCall Div
    Dot DotGeneral DynamicSlice DynamicUpdateSlice Eq Erf Exp
    Expm1 Fft Floor Gather Ge GetDimensionSize GetTupleElement Grad
    Gt Imag Infeed Iota IsFinite Le LoadNpy
    Log Log1p Logistic Lt Map Max
    Min Mul Ne Neg Not OptimizationBarrier Or
    Outfeed Pad PopulationCount Pow Real Recv Reduce
    ReducePrecision ReduceScatter ReduceWindow Rem ReplicaId Reshape
    Rev RngBitGenerator RngNormal RngUniform RoundNearestAfz RoundNearestEven
    Rsqrt SaveNpy Scatter Select SelectAndScatter Send ShiftLeft
    ShiftRightArithmetic ShiftRightLogical Sign Sin Slice Sort
    Sqrt Sub Tan Tanh TopK Transpose TriangularSolve Tuple
    Vjp While Xor
}

impl fmt::Display for OpId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::OpId;

    #[test]
    fn names_round_trip_and_are_sorted() {
        for w in OpId::ALL.windows(2) {
            assert!(w[0].name() < w[1].name(), "{} before {}", w[0], w[1]);
        }
        for &id in OpId::ALL {
            assert_eq!(OpId::from_name(id.name()), Some(id));
        }
        assert_eq!(OpId::from_name("add"), None);
        assert_eq!(OpId::Add.to_string(), "Add");
    }
}
