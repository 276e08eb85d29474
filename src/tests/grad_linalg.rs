//! Cholesky's and TriangularSolve's gradient rules against central finite
//! differences in f64 (`grad::check`: inputs in [0.5, 1.5], its tolerance).
//! Each matrix operand is `a + 4 I`: with off-diagonal elements at most 1.5
//! and diagonal ones at least 4.5, every 3x3 matrix read from one triangle is
//! diagonally dominant, so positive definite and far from singular, and the
//! functions are smooth there. Finite differences move every element, those
//! of the triangle the op never reads included (whose gradient is 0).

use super::grad::check;

const EYE4: &str = "f64[3x3] {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}}";

#[test]
fn cholesky_rule() {
    for lower in ["true", "false"] {
        check(&format!(
            "comp f(a: f64[3x3], w: f64[3x3]) -> f64 {{
               Reduce(Mul(Cholesky(Add(a, {EYE4}), lower={lower}), w), 0.0, add, {{0, 1}})
             }}"
        ));
        check(&format!(
            "comp f(a: f64[2x3x3], w: f64[2x3x3]) -> f64 {{
               let s = Add(a, BroadcastInDim({EYE4}, {{2, 3, 3}}, {{1, 2}}))
               Reduce(Mul(Cholesky(s, lower={lower}), w), 0.0, add, {{0, 1, 2}})
             }}"
        ));
    }
}

#[test]
fn triangular_solve_rule() {
    for left in [true, false] {
        let b = if left { "f64[3x2]" } else { "f64[2x3]" };
        for lower in ["true", "false"] {
            for unit in ["true", "false"] {
                for tr in ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"] {
                    check(&format!(
                        "comp f(a: f64[3x3], b: {b}, w: {b}) -> f64 {{
                           let x = TriangularSolve(Add(a, {EYE4}), b, {left}, {lower}, {unit}, {tr})
                           Reduce(Mul(x, w), 0.0, add, {{0, 1}})
                         }}"
                    ));
                }
            }
        }
    }
    // Batched.
    check(&format!(
        "comp f(a: f64[2x3x3], b: f64[2x3x2], w: f64[2x3x2]) -> f64 {{
           let s = Add(a, BroadcastInDim({EYE4}, {{2, 3, 3}}, {{1, 2}}))
           Reduce(Mul(TriangularSolve(s, b, true, true, false, TRANSPOSE), w), 0.0, add, {{0, 1, 2}})
         }}"
    ));
}
