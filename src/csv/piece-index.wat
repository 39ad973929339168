;; The places of a CSV piece's delimiters, line breaks and quotes as three bitmaps, 32 bytes a step
;; with SIMD (issue 50: 22 million calls of indexOf were a third of the CSV check). The source of
;; piece-index-wasm.ts: `npm run wasm` writes it, and a unit test checks that it is this file.
(module
  (memory (export "memory") 1)
  ;; index(at, end, marks, stride, delimiter, lineBreak): the bytes from `at` to `end` (32 bytes a
  ;; step: zero past the piece) marked in three bitmaps `stride` bytes apart from `marks`: the bytes
  ;; equal to `delimiter`, to `lineBreak`, then the quotes. Bit k of a bitmap's word w is byte
  ;; at + 32w + k.
  (func (export "index")
    (param $at i32) (param $end i32) (param $marks i32) (param $stride i32)
    (param $delimiter i32) (param $lineBreak i32)
    (local $d v128) (local $b v128) (local $q v128) (local $low v128) (local $high v128)
    (local.set $d (i8x16.splat (local.get $delimiter)))
    (local.set $b (i8x16.splat (local.get $lineBreak)))
    (local.set $q (i8x16.splat (i32.const 34)))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $low (v128.load (local.get $at)))
        (local.set $high (v128.load offset=16 (local.get $at)))
        (i32.store (local.get $marks)
          (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $low) (local.get $d)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $high) (local.get $d))) (i32.const 16))))
        (i32.store (i32.add (local.get $marks) (local.get $stride))
          (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $low) (local.get $b)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $high) (local.get $b))) (i32.const 16))))
        (i32.store (i32.add (local.get $marks) (i32.shl (local.get $stride) (i32.const 1)))
          (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $low) (local.get $q)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $high) (local.get $q))) (i32.const 16))))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (local.set $marks (i32.add (local.get $marks) (i32.const 4)))
        (br $step))))
)
