#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

/* ncursesw with its wide-character API; the terminal player paints with it. */
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

/* Swift cannot import function-like or cast macros, variadic functions, or use the global
   variables curses keeps (stdscr, LINES, COLS are not concurrency-safe to Swift 6): each is
   wrapped in a small inline function here. */

/* Starts curses on standard input and output; 0 when the terminal type (TERM) is unknown, where
   initscr would print a message and exit the process. */
static inline int cnc_start(void) { return newterm(NULL, stdout, stdin) != NULL; }

static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_columns(void) { return COLS; }

/* Attributes (NCURSES_BITS macros). */
static inline attr_t cnc_attribute_bold(void) { return A_BOLD; }
static inline attr_t cnc_attribute_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_attribute_dim(void) { return A_DIM; }
static inline attr_t cnc_color_pair(short pair) { return COLOR_PAIR(pair); }

/* The screen: stdscr's functions are macros over the window ones. */
static inline int cnc_erase(void) { return werase(stdscr); }
static inline int cnc_refresh(void) { return wrefresh(stdscr); }
static inline int cnc_keypad(bool on) { return keypad(stdscr, on); }
static inline int cnc_nodelay(bool on) { return nodelay(stdscr, on); }
static inline int cnc_getch(void) { return wgetch(stdscr); }
static inline int cnc_move(int row, int column) { return wmove(stdscr, row, column); }
static inline int cnc_attribute_set(attr_t attributes) { return wattrset(stdscr, (int)attributes); }

/* Writes at most `count` bytes of the UTF-8 text at (row, column); multibyte characters are
   decoded by the locale set with setlocale(LC_ALL, ""). */
static inline int cnc_put(int row, int column, const char *text, int count) {
    return mvwaddnstr(stdscr, row, column, text, count);
}

/* The terminal's size now, from the kernel (0 when standard input is not a terminal). */
static inline int cnc_terminal_size(int descriptor, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

/* Whether the locale's character set is UTF-8 (after setlocale). */
static inline int cnc_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && codeset[0] == 'U' && codeset[1] == 'T' && codeset[2] == 'F';
}

#endif
