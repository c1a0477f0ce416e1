/* json_util.c: see json_util.h */
#include "core/json_util.h"

#include <math.h>

const char *jstr(const json_t *obj, const char *key)
{
	const char *s = jstr_opt(obj, key);
	return s ? s : "";
}

const char *jstr_opt(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

double jnum(const json_t *obj, const char *key)
{
	return jnum_value(json_object_get(obj, key));
}

double jnum_value(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *jnum_or_null(double x)
{
	json_t *j = isfinite(x) ? json_real(x) : NULL;
	return j ? j : json_null();
}

json_t *jstr_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	return j ? j : json_null();
}

json_t *jstrvec(const struct strvec *sv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, jstr_or_null(sv->v[i]));
	return a;
}

void jset_num(json_t *obj, const char *key, double x)
{
	json_object_set_new(obj, key, jnum_or_null(x));
}

int jstrvec_read(const json_t *a, struct strvec *out)
{
	if (!json_is_array(a))
		return 0;
	size_t i;
	const json_t *x;
	json_array_foreach(a, i, x) sv_push(out, json_string_value(x) ? json_string_value(x) : "");
	return 1;
}

char *jstr_dup(const json_t *obj, const char *key)
{
	const char *s = jstr_opt(obj, key);
	return s ? xstrdup(s) : NULL;
}
