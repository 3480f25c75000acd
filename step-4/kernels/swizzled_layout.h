#pragma once
// @sect3{A tile as the TMA writes it (kernel 19)}
//
// An operand's tile of rows of op(A) (or columns of op(B)), 16 values of k deep, as
// the TMA writes it with the 128-byte swizzle: k-major (each row one 128-byte line of
// 16 values of k) or not (boxes of 16 × 16, one 128-byte line per k). `offset(outer,
// k)` is the byte at which entry (outer, k) lies: the place without the swizzle, whose
// bits 4 to 6 (the 16-byte chunk in a 128-byte line) are then XORed with bits 7 to 9
// (the line's number within its 1024 bytes). A stage starts on a multiple of 1024
// bytes, so these are the bits of the shared-memory address the TMA swizzles.
//
// `physical(f)` is the row (or column) of the tile that the fragments' index f stands
// for: the permutation within each 8 (k-major) or 16 (not) that makes every fragment
// load free of bank conflicts (19_dmma_tma.cuh derives it).
//
// A thread's loads differ only in the block of 16 (i: A's fragment, j / 2 for B's
// pairs of fragments), the half of it (h: rows 0-7 or 8-15 of A's fragment, j % 2 of
// B's pair) and the step of 4 along k (q). So each thread computes one offset, for
// f = its group g and k = its t, and each load moves it by constants: an XOR for what
// lies within a 1024-byte swizzle block (the swizzle is an XOR, so moving by part of a
// block XORs the same bits), plus an addition for whole blocks. The test
// swizzled_layout_test.cpp checks both claims for every thread: that the moves reach
// offset(physical(f), k), and that each load of half a warp hits 16 different 8-byte
// slots of the banks.

#include <lab/host_device.h>

#include <cstdint>

namespace step4
{
  template <bool k_major>
  struct SwizzledLayout
  {
    LAB_HOST_DEVICE static constexpr std::uint32_t offset(int outer, int k)
    {
      const std::uint32_t plain = k_major ? outer * 128 + k * 8
                                          : outer / 16 * 2048 + k * 128 + outer % 16 * 8;
      return plain ^ (plain >> 7 & 7) << 4;
    }

    LAB_HOST_DEVICE static constexpr int physical(int f)
    {
      return k_major ? f / 8 * 8 + 2 * (f % 4) + f % 8 / 4
                     : f / 16 * 16 + 4 * (f % 16 / 8) + f % 8 / 2 + 8 * (f % 2);
    }

    // The moves from the thread's offset to block `block`, half h, step q: XOR first,
    // then add (they touch different bits).
    LAB_HOST_DEVICE static constexpr std::uint32_t xor_part(int h, int q)
    {
      return k_major ? q << 5 : h << 5 | q % 2 << 6;
    }
    LAB_HOST_DEVICE static constexpr std::uint32_t add_part(int block, int h, int q)
    {
      return k_major ? (16 * block + 8 * h) * 128 : block * 2048 + q * 512;
    }
  };
} // namespace step4
