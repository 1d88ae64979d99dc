"""What storage tells the app: typed, translatable problems (same mechanism as record errors)."""

from __future__ import annotations

from typing import ClassVar

from scoring.errors import Problem


class StorageError(Problem):
    """An operation that cannot be done; nothing was written."""


class DataDirectoryInUse(StorageError):
    template = "Debrief is already open with the data in {folder}; close it there first"


class OpenInAnotherTab(DataDirectoryInUse):
    template = (
        "Debrief is already open in another tab of this browser: it opens here once you close "
        "it there"
    )


class NotKeptInBrowser(StorageError):
    template = (
        "the browser did not keep the last change ({reason}): it is lost when this tab closes. "
        "Free some space on the phone, then export a backup in Settings"
    )


class NewerData(StorageError):
    template = (
        "the data in {folder} was written by a newer Debrief (version {found}); update the app"
    )


class NotAFolder(StorageError):
    template = "{folder} is not a folder: give the folder where Debrief keeps its data"


class DataFolderLinkBroken(StorageError):
    template = (
        "{folder} is a link to {target}, which does not exist: connect the drive it is on or "
        "bring the folder back, then start Debrief again"
    )


class LinkBroken(StorageError):
    template = (
        "{file} is a link to {target}, which is missing or not an ordinary file: nothing was "
        "saved. Everything saved before is kept; bring back what it leads to, or put the file "
        "itself in place of the link, and try again"
    )


class LinkChanged(StorageError):
    template = (
        "{file} was changed while Debrief had it open and now leads to {target}: nothing was "
        "saved, so as not to write where it was not meant to. Everything saved before is kept; "
        "start Debrief again to use it as it is now"
    )


class DiskFull(StorageError):
    template = (
        "the disk is full: the change was not saved in {folder}. Everything saved before is "
        "kept. Free some space on the disk and try again"
    )


class DataReadOnly(StorageError):
    template = (
        "the data folder {folder} is read-only: nothing can be saved. Everything saved before "
        "is kept and can be viewed and exported; make the folder writable to save again"
    )


class OpenedReadOnly(DataReadOnly):
    """Refused for as long as the data is open: its folder was read-only when it was opened
    (what was set right then is in memory only, a damaged file may be left in place)."""

    template = (
        "the data folder {folder} was read-only when Debrief opened it: nothing can be saved. "
        "Everything saved before is kept and can be viewed and exported; make the folder "
        "writable and open Debrief again to save"
    )


class WriteFailed(StorageError):
    template = (
        "the change could not be written in {folder} ({reason}). Everything saved before is "
        "kept; try again"
    )


class GameNotFound(StorageError):
    template = "there is no game {game_id}"


class GameNotActive(StorageError):
    template = "game {game_id} is already finished"


class GameNotFinished(StorageError):
    template = "game {game_id} is still in progress"


class GameInBin(StorageError):
    template = "game {game_id} was deleted (History: Deleted games)"


class ChangedElsewhere(StorageError):
    """A change based on a revision of the game that is no longer the current one."""

    template = "the game was changed in the meantime"


class DraftAlreadySaved(StorageError):
    """A change that saves a round's draft (its Save, its Delete) came again for a draft that
    was saved already: a second tap, or a message sent twice. `number`: the round it saved
    (None: not known any more)."""

    template = "this entry was saved already; nothing was saved twice"


class NoSuchRound(StorageError):
    template = "game {game_id} has no round {number}"


class PlayerNotFound(StorageError):
    template = "there is no player {player_id}"


class PlayerNameTaken(StorageError):
    template = "there is already a player called {name}"


class PlayerNameLooksAlike(StorageError):
    """A name that is another player's because the two look the same across scripts."""

    template = "“{name}” looks the same as “{other}”"


class InvalidPlayer(StorageError):
    template = "{problem}"


class NotABackup(StorageError):
    template = "{source} is not a game record, a list of game records or a Debrief backup"


class ImportRefused(StorageError):
    """A file with invalid records: `errors` lists them (paths inside the file)."""

    template = "{source} was not imported: {count} problems"


class StartupNotice(Problem):
    """Something found while opening the data that the user must be told about. `damage`:
    it is about data found damaged (what `storage check` counts as a problem)."""

    damage: ClassVar[bool] = False


class DamagedFileKeptAside(StartupNotice):
    damage = True
    template = (
        "{file} could not be read ({reason}); it was kept as {kept_as} "
        "and Debrief started without it"
    )


class DamagedFileLeftInPlace(StartupNotice):
    damage = True
    template = (
        "{file} could not be read ({reason}); it stays as it is, as nothing can be written in the "
        "data folder, and Debrief started without it. Once the folder is writable, Debrief keeps "
        "it aside when it opens the data again"
    )


class PartsLeftInPlace(StartupNotice):
    damage = True
    template = (
        "parts of {file} could not be read ({reason}); they stay in the file, as nothing can be "
        "written in the data folder, and Debrief started with the rest"
    )


class PartsKeptAside(StartupNotice):
    damage = True
    template = (
        "parts of {file} could not be read ({reason}); they were kept in {kept_as} and Debrief "
        "started with the rest"
    )


class DocumentKeptAside(StartupNotice):
    damage = True
    template = (
        "an entry of {file} ({id}) cannot be used: {reason}. It was kept in {kept_as} and "
        "Debrief started with everything else"
    )


class DocumentLeftOut(StartupNotice):
    damage = True
    template = (
        "an entry of {file} ({id}) cannot be used: {reason}. Debrief leaves it out; it stays in "
        "the file, as nothing can be written there now"
    )


class JournalKeptAside(StartupNotice):
    damage = True
    template = (
        "an interrupted change could not be completed: its journal could not be read ({reason}) "
        "and was kept as {kept_as}. The list of finished games was rebuilt; check that your "
        "last change is there"
    )


class JournalLeftInPlace(StartupNotice):
    damage = True
    template = (
        "an interrupted change could not be completed: its journal could not be read ({reason}) "
        "and stays as it is, as nothing can be written in the data folder. The list of finished "
        "games was made again from the game files; check that your last change is there"
    )


class SchemaVersionRepaired(StartupNotice):
    damage = True
    template = "the data's version mark was damaged ({found}); the data was brought up to date"


class LockKeptAside(StartupNotice):
    damage = True
    template = "debrief.lock was not a lock file; it was kept as {kept_as}"


class LockLeftInPlace(StartupNotice):
    damage = True
    template = (
        "debrief.lock is not a lock file; it stays as it is, as nothing can be written in the "
        "data folder"
    )


class DamagedArchiveKeptAside(StartupNotice):
    damage = True
    """`games`: the summaries of the finished games it takes out of the history (the screen
    names them)."""

    template = (
        "a file of finished games could not be read ({reason}): the games in it ({count}) are "
        "missing from the history for now. It was kept as {kept_as}. If you have a backup with "
        "them, import it in Settings"
    )


class DamagedArchiveLeftInPlace(StartupNotice):
    damage = True
    template = (
        "a file of finished games could not be read ({reason}): the games in it ({count}) are "
        "missing from the history for now. {file} stays as it is, as nothing can be written in "
        "the data folder. If you have a backup with them, import it in Settings once the folder "
        "is writable"
    )


class ArchiveFileMissing(StartupNotice):
    damage = True
    template = (
        "a file of finished games is gone ({file}): the games in it ({count}) are missing from "
        "the history. If you have a backup with them, import it in Settings"
    )


class ArchivedRecordsMissing(StartupNotice):
    damage = True
    template = (
        "finished games are no longer in their file ({file}): they ({count}) are missing from "
        "the history. If you have a backup with them, import it in Settings"
    )


class InterruptedWriteRemoved(StartupNotice):
    template = (
        "Debrief was stopped in the middle of saving; what it was saving then was not kept "
        "(it had not said it was saved). Everything saved before is kept"
    )


class IndexRebuilt(StartupNotice):
    damage = True
    template = "the list of finished games was rebuilt from the game files ({count} games)"


class NamesRenamed(StartupNotice):
    template = (
        "player names are now compared the way they look, so these were changed: {renames}. "
        "Check them in Players"
    )


class ReadOnlyData(StartupNotice):
    template = (
        "the data folder {folder} is read-only: your games can be viewed and exported, but "
        "nothing can be saved until it is writable and Debrief opens it again"
    )


class ImportWaitsForSpace(StartupNotice):
    template = (
        "an interrupted import cannot be finished yet: {problem}. Debrief finishes it at the "
        "next start; until then some of its games may be missing"
    )


class InterruptedImportCompleted(StartupNotice):
    template = "an import that was interrupted was completed: {games} games and {players} players"


class InterruptedWorkCompleted(StartupNotice):
    template = "an interrupted change to {count} games was completed"


class GameNamesLookAlike(StartupNotice):
    template = (
        "{game} with {players} ({started}): {reason}. Names that look the same are one name "
        "now; this game was stored before and is kept as it is: it can be played on, but an "
        "import refuses a backup with it"
    )


class PlayersLookAlike(StartupNotice):
    template = (
        "{reason}: these players were added before names that look the same were one name. "
        "Both are kept; rename one of them in Players"
    )


class GameNeedsCorrection(StartupNotice):
    template = (
        "{game} with {players} ({started}) breaks a rule in round {round}: {reason}. It is kept "
        "and opens at that round to be corrected; until then it counts in no statistics"
    )
