package io.topolens.catalog;

import io.topolens.catalog.JsonTokens.Token;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON file bundled in the jar beside the class that reads it (the model's constants, presets,
 * lint rules, Kubernetes settings, the hardware catalog), bound to records strictly, as databind's
 * {@code FAIL_ON_UNKNOWN_PROPERTIES} bound it: a field the records do not name is an error in the
 * bundled file, not something to skip; a field left out is null, or 0 and false for a primitive;
 * numbers and texts convert into each other; lists and maps of these. Read with {@link JsonTokens}:
 * a databind {@code ObjectMapper} takes a tenth of a second to start, the most of a small diagnose
 * that reads an nvidia-smi file ({@code hardware.json}, docs/performance.md). {@code
 * BundledJsonTest} compares the two on every bundled file.
 */
public final class BundledJson {
  private BundledJson() {}

  public static <T> T read(Class<?> owner, String resource, Class<T> type) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " missing from the jar");
      }
      JsonTokens p = JsonTokens.of(resource, in);
      return type.cast(bind(tree(p, p.next()), type, resource));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value a token starts: a map, a list, a text (a number as written), a Boolean or null. */
  private static Object tree(JsonTokens p, Token t) {
    return switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.next() == Token.FIELD_NAME) {
          String name = p.text();
          m.put(name, tree(p, p.next()));
        }
        yield m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        for (Token item = p.next(); item != Token.END_ARRAY; item = p.next()) {
          l.add(tree(p, item));
        }
        yield l;
      }
      case STRING, NUMBER -> p.text();
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case NULL -> null;
      default -> throw new IllegalStateException("unexpected " + t);
    };
  }

  private static Object bind(Object v, Type type, String where) {
    Class<?> raw =
        type instanceof ParameterizedType pt ? (Class<?>) pt.getRawType() : (Class<?>) type;
    if (v == null) {
      return raw == int.class || raw == long.class
          ? (Object) (raw == int.class ? 0 : 0L)
          : raw == double.class ? 0.0 : raw == boolean.class ? Boolean.FALSE : null;
    }
    if (raw == String.class) {
      return require(v, !(v instanceof Map || v instanceof List), where).toString();
    }
    if (raw == int.class || raw == Integer.class) {
      return Math.toIntExact(whole(text(v, where)));
    }
    if (raw == long.class || raw == Long.class) {
      return whole(text(v, where));
    }
    if (raw == double.class || raw == Double.class) {
      return Double.valueOf(text(v, where));
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return v instanceof Boolean b ? b : Boolean.valueOf(bool(text(v, where), where));
    }
    Type[] args = type instanceof ParameterizedType pt ? pt.getActualTypeArguments() : null;
    if (raw == List.class && v instanceof List<?> items && args != null) {
      List<Object> out = new ArrayList<>();
      for (Object item : items) {
        out.add(bind(item, args[0], where));
      }
      return out;
    }
    if (raw == Map.class && v instanceof Map<?, ?> m && args != null && args[0] == String.class) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put((String) k, bind(x, args[1], where + "." + k)));
      return out;
    }
    if (raw.isRecord() && v instanceof Map<?, ?> m) {
      return record(raw, m, where);
    }
    throw new IllegalStateException(where + ": expected " + type.getTypeName());
  }

  private static Object record(Class<?> type, Map<?, ?> fields, String where) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    int known = 0;
    for (int i = 0; i < components.length; i++) {
      String name = components[i].getName();
      types[i] = components[i].getType();
      known += fields.containsKey(name) ? 1 : 0;
      values[i] = bind(fields.get(name), components[i].getGenericType(), where + "." + name);
    }
    if (known != fields.size()) {
      List<String> names = new ArrayList<>();
      for (RecordComponent c : components) {
        names.add(c.getName());
      }
      throw new IllegalStateException(
          where + ": a field other than " + names + " in " + fields.keySet());
    }
    try {
      Constructor<?> c = type.getDeclaredConstructor(types);
      c.setAccessible(true);
      return c.newInstance(values);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(where + ": " + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    }
  }

  /** A whole number; one written with a fraction or exponent is cut, as databind's default does. */
  private static long whole(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return (long) Double.parseDouble(text);
    }
  }

  private static String text(Object v, String where) {
    return (String) require(v, v instanceof String, where);
  }

  private static boolean bool(String text, String where) {
    require(text, text.equals("true") || text.equals("false"), where);
    return text.equals("true");
  }

  private static Object require(Object v, boolean ok, String where) {
    if (!ok) {
      throw new IllegalStateException(where + ": unexpected value " + v);
    }
    return v;
  }
}
