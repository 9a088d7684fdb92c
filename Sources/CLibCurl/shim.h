// libcurl's easy interface for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which
// Swift cannot call, so each argument type gets a small typed wrapper.
#include <curl/curl.h>

typedef size_t (*interlude_curl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*interlude_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                                curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode interlude_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode interlude_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode interlude_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode interlude_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode interlude_curl_set_write_callback(CURL *handle, interlude_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode interlude_curl_set_progress_callback(CURL *handle, interlude_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode interlude_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode interlude_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
