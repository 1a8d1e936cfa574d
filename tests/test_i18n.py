"""What people read is written as their language writes it (CLDR, through Babel): lists, sentences
one after another, moments, durations, numbers; and which of our languages a browser asks for."""

import pytest

from chalicelib.kernel import i18n


def said(language, make):
    with i18n.speaking(language):
        return make()


@pytest.mark.parametrize("language, flags, two", [
    ("en", "2, 4, and 7", "Ann and Bob"), ("zh-Hans", "2、4和7", "Ann和Bob"),
    ("ja", "2、4、7", "Ann、Bob"), ("vi", "2, 4 và 7", "Ann và Bob")])
def test_lists_are_joined_as_each_language_joins_them(language, flags, two):
    assert said(language, lambda: i18n.listed([2, 4, 7])) == flags
    assert said(language, lambda: i18n.listed(["Ann", "Bob"])) == two
    assert said(language, lambda: i18n.listed(["Ann"])) == "Ann" and said(language, lambda: i18n.listed([])) == ""


def test_sentences_end_with_the_languages_full_stop_and_no_double_stop():
    assert said("zh-Hans", lambda: i18n.sentences("Bob打出了7R", "轮到你了。")) == "Bob打出了7R。轮到你了。"
    assert said("ja", lambda: i18n.sentences("あなたの番です", "")) == "あなたの番です。"
    assert said("en", lambda: i18n.sentences("Bob played 7R", "Your move.")) == "Bob played 7R. Your move."
    assert said("vi", lambda: i18n.sentences("Đến lượt bạn!", "Bob đánh 7R")) == "Đến lượt bạn! Bob đánh 7R."


@pytest.mark.parametrize("language, written", [
    ("en", "Nov 30, 2026 12:05 UTC"), ("zh-Hans", "2026年11月30日 12:05 UTC"),
    ("ja", "2026年11月30日 12:05 UTC"), ("vi", "30 thg 11, 2026 12:05 UTC")])
def test_a_moment_is_written_as_the_language_writes_dates(language, written):
    assert said(language, lambda: i18n.moment("2026-11-30T12:05:00Z")) == written


@pytest.mark.parametrize("language, long, short", [
    ("en", "2 days, 3 hours", "40 minutes"), ("zh-Hans", "2天3小时", "40分钟"),
    ("ja", "2日3時間", "40分"), ("vi", "2 ngày, 3 giờ", "40 phút")])
def test_a_duration_is_said_in_the_language_in_two_units_at_most(language, long, short):
    assert said(language, lambda: i18n.duration(2 * 86400 + 3 * 3600 + 59 * 60)) == long
    assert said(language, lambda: i18n.duration(40 * 60 + 5)) == short


def test_numbers_use_the_languages_marks():
    assert said("en", lambda: i18n.number(1523.4, 1)) == "1,523.4"
    assert said("vi", lambda: i18n.number(1523.4, 1)) == "1.523,4"


@pytest.mark.parametrize("header, language", [
    ("ja,en-US;q=0.8", "ja"), ("zh-CN,zh;q=0.9", "zh-Hans"), ("zh-TW", "zh-Hans"), ("vi-VN", "vi"),
    ("fr-FR, de;q=0.5", "en"), ("fr, vi;q=0.4, ja;q=0.6", "ja"), ("ja;q=0, vi", "vi"), (None, "en"), ("", "en"),
    ("*", "en"), ("ja;q=abc, vi;q=0.1", "vi")])
def test_accept_language_picks_the_first_of_our_languages_asked_for(header, language):
    assert i18n.negotiate(header) == language
