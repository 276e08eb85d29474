module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>, %arg2: tensor<12xi32>, %arg3: tensor<12xui8>, %arg4: tensor<12xui8>, %arg5: tensor<12xui8>) -> (tensor<12xi32> {jax.result_info = "result[0]"}, tensor<12xi32> {jax.result_info = "result[1]"}, tensor<12xi32> {jax.result_info = "result[2]"}, tensor<12xui8> {jax.result_info = "result[3]"}, tensor<12xui8> {jax.result_info = "result[4]"}, tensor<12xui8> {jax.result_info = "result[5]"}, tensor<12xi32> {jax.result_info = "result[6]"}, tensor<12xi32> {jax.result_info = "result[7]"}, tensor<12xi32> {jax.result_info = "result[8]"}, tensor<12xui8> {jax.result_info = "result[9]"}, tensor<12xui8> {jax.result_info = "result[10]"}, tensor<12xi32> {jax.result_info = "result[11]"}, tensor<12xi32> {jax.result_info = "result[12]"}, tensor<12xi32> {jax.result_info = "result[13]"}, tensor<12xi32> {jax.result_info = "result[14]"}, tensor<12xi32> {jax.result_info = "result[15]"}, tensor<12xi32> {jax.result_info = "result[16]"}, tensor<12xui8> {jax.result_info = "result[17]"}, tensor<12xui8> {jax.result_info = "result[18]"}, tensor<12xui8> {jax.result_info = "result[19]"}, tensor<12xi32> {jax.result_info = "result[20]"}) {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<12xi32>
    %1 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<12xi32>
    %2 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<12xi32>
    %3 = stablehlo.shift_left %arg3, %arg4 : tensor<12xui8>
    %4 = stablehlo.shift_right_logical %arg3, %arg4 : tensor<12xui8>
    %5 = stablehlo.shift_right_arithmetic %arg3, %arg4 : tensor<12xui8>
    %6 = stablehlo.remainder %arg0, %arg2 : tensor<12xi32>
    %7 = call @remainder(%arg0, %arg2) : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %8 = call @floor_divide(%arg0, %arg2) : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %9 = call @remainder_0(%arg3, %arg5) : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xui8>
    %10 = call @floor_divide_2(%arg3, %arg5) : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xui8>
    %11 = stablehlo.and %arg0, %arg2 : tensor<12xi32>
    %12 = stablehlo.or %arg0, %arg2 : tensor<12xi32>
    %13 = stablehlo.xor %arg0, %arg2 : tensor<12xi32>
    %14 = stablehlo.not %arg0 : tensor<12xi32>
    %15 = stablehlo.popcnt %arg0 : tensor<12xi32>
    %16 = stablehlo.count_leading_zeros %arg0 : tensor<12xi32>
    %17 = stablehlo.add %arg3, %arg4 : tensor<12xui8>
    %18 = stablehlo.multiply %arg3, %arg5 : tensor<12xui8>
    %19 = stablehlo.subtract %arg3, %arg5 : tensor<12xui8>
    %20 = stablehlo.multiply %arg0, %arg2 : tensor<12xi32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20 : tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xui8>, tensor<12xui8>, tensor<12xui8>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xui8>, tensor<12xui8>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xui8>, tensor<12xui8>, tensor<12xui8>, tensor<12xi32>
  }
  func.func private @remainder(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>) -> tensor<12xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %3 = call @_where(%1, %2, %arg1) : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<12xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<12xi1>, tensor<12xi1>) -> tensor<12xi1>
    %12 = stablehlo.and %11, %6 : tensor<12xi1>
    %13 = stablehlo.add %4, %3 : tensor<12xi32>
    %14 = stablehlo.select %12, %13, %4 : tensor<12xi1>, tensor<12xi32>
    return %14 : tensor<12xi32>
  }
  func.func private @_where(%arg0: tensor<12xi1>, %arg1: tensor<12xi32>, %arg2: tensor<12xi32>) -> tensor<12xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xi32>
    return %0 : tensor<12xi32>
  }
  func.func private @floor_divide(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>) -> tensor<12xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<12xi32>
    %1 = stablehlo.sign %arg0 : tensor<12xi32>
    %2 = stablehlo.sign %arg1 : tensor<12xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<12xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
    %7 = stablehlo.and %3, %6 : tensor<12xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<12xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<12xi32>
    %10 = call @_where(%7, %9, %0) : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    return %10 : tensor<12xi32>
  }
  func.func private @remainder_0(%arg0: tensor<12xui8>, %arg1: tensor<12xui8>) -> tensor<12xui8> {
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %1 = stablehlo.compare EQ, %arg1, %0, UNSIGNED : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui8>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %3 = call @_where_1(%1, %2, %arg1) : (tensor<12xi1>, tensor<12xui8>, tensor<12xui8>) -> tensor<12xui8>
    %4 = stablehlo.remainder %arg0, %3 : tensor<12xui8>
    %c_1 = stablehlo.constant dense<0> : tensor<ui8>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui8>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %8 = stablehlo.compare LT, %4, %7, UNSIGNED : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui8>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %10 = stablehlo.compare LT, %3, %9, UNSIGNED : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<12xi1>, tensor<12xi1>) -> tensor<12xi1>
    %12 = stablehlo.and %11, %6 : tensor<12xi1>
    %13 = stablehlo.add %4, %3 : tensor<12xui8>
    %14 = stablehlo.select %12, %13, %4 : tensor<12xi1>, tensor<12xui8>
    return %14 : tensor<12xui8>
  }
  func.func private @_where_1(%arg0: tensor<12xi1>, %arg1: tensor<12xui8>, %arg2: tensor<12xui8>) -> tensor<12xui8> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xui8>
    return %0 : tensor<12xui8>
  }
  func.func private @floor_divide_2(%arg0: tensor<12xui8>, %arg1: tensor<12xui8>) -> tensor<12xui8> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<12xui8>
    return %0 : tensor<12xui8>
  }
}
