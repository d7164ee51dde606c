package io.topolens.present;

import java.math.BigInteger;

/**
 * A number rounded to four significant digits (half up, on its exact binary value), without
 * trailing zeros, in plain notation: what {@code new BigDecimal(v).round(new MathContext(4))
 * .stripTrailingZeros().toPlainString()} gives, computed on whole numbers: {@code BigDecimal}'s
 * class initializer alone takes 15 ms, a twentieth of a small diagnose. {@code FourDigitsTest}
 * holds the two equal.
 */
final class FourDigits {
  private FourDigits() {}

  static String of(double v) {
    if (!Double.isFinite(v)) {
      throw new NumberFormatException("Infinite or NaN");
    }
    if (v == 0) {
      return "0";
    }
    long bits = Double.doubleToRawLongBits(Math.abs(v));
    int biased = (int) (bits >>> 52);
    long mantissa = bits & ((1L << 52) - 1);
    if (biased == 0) {
      biased = 1; // subnormal
    } else {
      mantissa |= 1L << 52;
    }
    int binary = biased - 1075; // |v| = mantissa * 2^binary, exactly
    BigInteger num = BigInteger.valueOf(mantissa);
    BigInteger den = BigInteger.ONE;
    if (binary >= 0) {
      num = num.shiftLeft(binary);
    } else {
      den = den.shiftLeft(-binary);
    }
    // the decimal exponent k with 1000 <= |v| / 10^k < 10000
    int k = (int) Math.floor(Math.log10(Math.abs(v))) - 3;
    BigInteger[] scaled;
    while (true) {
      scaled = scaled(num, den, k);
      int whole = scaled[0].divide(scaled[1]).compareTo(BigInteger.valueOf(1000));
      if (whole < 0) {
        k--;
      } else if (scaled[0].divide(scaled[1]).compareTo(BigInteger.valueOf(10000)) >= 0) {
        k++;
      } else {
        break;
      }
    }
    // half up: floor((2 num + den) / (2 den))
    BigInteger twice = scaled[1].shiftLeft(1);
    long n = scaled[0].shiftLeft(1).add(scaled[1]).divide(twice).longValueExact();
    if (n == 10000) {
      n = 1000;
      k++;
    }
    while (n % 10 == 0) {
      n /= 10;
      k++;
    }
    return (v < 0 ? "-" : "") + plain(Long.toString(n), k);
  }

  /** {@code num / den / 10^k} as a numerator and a denominator. */
  private static BigInteger[] scaled(BigInteger num, BigInteger den, int k) {
    return k >= 0
        ? new BigInteger[] {num, den.multiply(BigInteger.TEN.pow(k))}
        : new BigInteger[] {num.multiply(BigInteger.TEN.pow(-k)), den};
  }

  /** The digits times 10^k, written out. */
  private static String plain(String digits, int k) {
    if (k >= 0) {
      return digits + "0".repeat(k);
    }
    int point = digits.length() + k;
    return point > 0
        ? digits.substring(0, point) + "." + digits.substring(point)
        : "0." + "0".repeat(-point) + digits;
  }
}
