// Expected values from jax 0.10.2:
//   x = jnp.array([1.0, 2.0, 3.0])
//   def f():
//       def body(i, c):
//           a, s = c
//           return lax.switch(i % 3, [lambda: (a + s, s), lambda: (a * 2.0, s + 1.0), lambda: (a - x, s * a[0])]), s
//       return lax.fori_loop(0, 7, lambda i, c: body(i, c)[0], (x, jnp.float32(0.5)))
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0:5 = stablehlo.while(%iterArg = %cst, %iterArg_2 = %c_1, %iterArg_3 = %c, %iterArg_4 = %cst, %iterArg_5 = %cst_0) : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<f32>
    cond {
      %c_6 = stablehlo.constant dense<7> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_2, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:3 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_4, %iterArg_5) : (tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<f32>) -> (tensor<i32>, tensor<3xf32>, tensor<f32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_2, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %2, %1#0, %1#1, %1#2 : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<f32>
    }
    check.expect_almost_eq_const %0#3, dense<[83.5, 84.5, 85.5]> : tensor<3xf32>
    check.expect_almost_eq_const %0#4, dense<71.5> : tensor<f32>
    return %0#3, %0#4 : tensor<3xf32>, tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<3xf32>, %arg1: tensor<i32>, %arg2: tensor<3xf32>, %arg3: tensor<f32>) -> (tensor<i32>, tensor<3xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %1 = call @remainder(%arg1, %c_0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.convert %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %3 = stablehlo.clamp %c_1, %2, %c_2 : tensor<i32>
    %4:2 = "stablehlo.case"(%3) ({
      %5 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %6 = stablehlo.add %arg2, %5 : tensor<3xf32>
      stablehlo.return %6, %arg3 : tensor<3xf32>, tensor<f32>
    }, {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %6 = stablehlo.multiply %arg2, %5 : tensor<3xf32>
      %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %7 = stablehlo.add %arg3, %cst_3 : tensor<f32>
      stablehlo.return %6, %7 : tensor<3xf32>, tensor<f32>
    }, {
      %5 = stablehlo.subtract %arg2, %arg0 : tensor<3xf32>
      %6 = stablehlo.slice %arg2 [0:1] : (tensor<3xf32>) -> tensor<1xf32>
      %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
      %8 = stablehlo.multiply %arg3, %7 : tensor<f32>
      stablehlo.return %5, %8 : tensor<3xf32>, tensor<f32>
    }) : (tensor<i32>) -> (tensor<3xf32>, tensor<f32>)
    return %0, %4#0, %4#1 : tensor<i32>, tensor<3xf32>, tensor<f32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
